"""The warm judge: `judge run` handing its file to a running `judge serve` over a unix socket.

protocol.py  where the socket lives, who may use it, what identifies a judge and its context
client.py    the `judge run` side (standard library only: neither numpy nor torch, nor click)
server.py    the `judge serve` side: a thread answering requests with the server's warm Judge
"""
