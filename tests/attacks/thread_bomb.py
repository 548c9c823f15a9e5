"""Issue 21, class 3: start threads until the machine runs out of PIDs.

Small stacks, so the address-space limit alone does not stop it. Bounded: at most 3,000
threads, each waiting on one event that is set before the file finishes loading.
"""
import threading

threading.stack_size(64 << 10)
release = threading.Event()
started = 0
try:
    for started in range(3000):
        threading.Thread(target=release.wait, daemon=True).start()
except RuntimeError:
    pass
release.set()
if started > 500:
    print(f"PWNED: {started} threads", flush=True)


def double(x):
    return x * 2
