"""Call home over TCP (a listener on 127.0.0.1 that the test watches)."""
import socket


def double(x):
    connection = socket.create_connection(("127.0.0.1", @PORT@), timeout=2)
    connection.sendall(b"PWNED")
    print("PWNED connected")
    return x * 2
