"""Reserve memory in 256 MiB steps, at most 3 GiB (the limit is 512 MiB).

Blocks are reserved, not filled, so the attack stays cheap on a loaded
machine; should the address-space limit regress, 3 GiB of untouched memory
harms nothing and the attack reports PWNED.
"""
import numpy as np


def double(x):
    hoard = []
    for _ in range(12):
        block = np.empty(256 << 20, dtype=np.uint8)
        block[0] = 1
        hoard.append(block)
    print("PWNED reserved", sum(b.nbytes for b in hoard) >> 20, "MiB")
    return x * 2
