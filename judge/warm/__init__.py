"""The warm judge: `judge run` handing its file to a judge that keeps torch imported, over a unix socket.

protocol.py  where the socket lives, who may use it, what identifies a judge and its context
client.py    the `judge run` side (standard library only: neither numpy nor torch, nor click)
spawn.py     starting the warm judge in the background (and saying so), and waiting for it
daemon.py    the warm judge that starts itself and leaves when idle
server.py    the socket's side: a thread answering requests with the server's warm Judge
"""
