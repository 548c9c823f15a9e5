"""Ignore every catchable signal, then spin (bounded at 30 s)."""
import signal
import time

for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGALRM, signal.SIGXCPU, signal.SIGUSR1):
    signal.signal(sig, signal.SIG_IGN)


def double(x):
    end = time.monotonic() + 30
    while time.monotonic() < end:
        pass
    return x * 2
