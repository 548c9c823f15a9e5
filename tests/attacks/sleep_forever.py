"""Sleep past the limit without using CPU (the CPU limit cannot see it)."""
import time


def double(x):
    time.sleep(30)
    return x * 2
