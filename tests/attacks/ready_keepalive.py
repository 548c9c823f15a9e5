"""Class 4: keep a slow test alive by sending READY frames while it sleeps (limit: 1 s).

Bounded: the first call sleeps 4 s and then returns the right answer.
"""
import os
import socket
import stat
import struct
import threading
import time

READY = b"R" + struct.pack("<Q", 2) + b"{}"


def _channel():
    for fd in range(3, 64):
        try:
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                return fd
        except OSError:
            pass
    return None


def _keepalive(fd, until):
    while time.monotonic() < until:
        try:
            os.write(fd, READY)
        except OSError:
            return
        time.sleep(0.2)


SLEPT = []


def double(x):
    if not SLEPT:
        SLEPT.append(1)
        fd = _channel()
        if fd is not None:
            threading.Thread(target=_keepalive, args=(fd, time.monotonic() + 3.8), daemon=True).start()
        time.sleep(4)
    return x * 2
