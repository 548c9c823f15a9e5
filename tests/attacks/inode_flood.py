"""Issue 21, class 3: fill the scratch tmpfs with empty files (each costs an inode, no bytes).

Bounded: at most 100,000 files and 8 s (less than the time to load a file).
"""
import os
import time


def _flood():
    began, made = time.monotonic(), 0
    try:
        while made < 100_000 and time.monotonic() - began < 8:
            open(f"f{made}", "w").close()
            made += 1
    except OSError:
        pass
    return made


made = _flood()
if made > 10_000:
    print(f"PWNED: {made} files", flush=True)


def double(x):
    return x * 2
