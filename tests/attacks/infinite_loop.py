"""Spin; bounded at 30 s so that a broken time limit fails the test instead of hanging it."""
import time


def double(x):
    end = time.monotonic() + 30
    while time.monotonic() < end:
        pass
    return x * 2
