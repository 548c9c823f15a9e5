"""A correct answer that leaves a non-daemon thread behind, writing after the test."""
import threading
import time


def _linger():
    time.sleep(3)
    with open("@CANARY@/thread_wrote", "w") as f:
        f.write("PWNED")


def double(x):
    threading.Thread(target=_linger).start()
    return x * 2
