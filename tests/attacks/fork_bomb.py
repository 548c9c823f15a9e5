"""Fork children that outlive the test (8, each sleeps 60 s).

Eight prove what the layers must stop (a fork at all; children left running), and keep the call far
inside the 1 s limit where each fork copies the page tables of a CUDA build of torch on a loaded machine
(32 took over 1 s in the learner's suite beside another one).
"""
import os
import time


def double(x):
    started = 0
    for _ in range(8):
        pid = os.fork()
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        started += 1
    print("PWNED forked", started)
    return x * 2
