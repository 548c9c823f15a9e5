"""Class 10: a memory hog that touches every page it takes (limit: 512 MiB, 1 s).

Fills 32 MiB blocks until the address-space limit stops it (MemoryError, at
most 20 blocks). On a loaded machine touching pages is slow enough that the
time limit often comes first; the hog was still stopped by its memory use, so
the verdict is memory_limit_exceeded either way.
"""
import numpy as np


def double(x):
    hoard = []
    for _ in range(20):
        hoard.append(np.ones(32 << 20, dtype=np.uint8))
    print("PWNED touched", len(hoard) * 32, "MiB")
    return x * 2
