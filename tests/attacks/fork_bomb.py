"""Fork children that outlive the test (at most 32, each sleeps 60 s)."""
import os
import time


def double(x):
    started = 0
    for _ in range(32):
        pid = os.fork()
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        started += 1
    print("PWNED forked", started)
    return x * 2
