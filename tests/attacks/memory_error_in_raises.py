"""Class 10: run out of memory in the raises test: the verdict is memory_limit_exceeded.

A real MemoryError (a 1 TiB reservation fails at once under the address-space limit);
nothing is touched. Correct everywhere else.
"""
import numpy as np


def double_rows(x):
    if x.ndim != 2:
        np.empty(1 << 40, dtype=np.uint8)
        raise ValueError("x must be 2-D")
    return x + x
