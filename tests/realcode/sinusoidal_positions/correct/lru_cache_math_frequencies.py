"""The frequencies memoised with functools.lru_cache and every entry computed with math.sin / math.cos, as everyday Python writes a small table.

Adapted from: the Annotated Transformer's PositionalEncoding (harvardnlp/annotated-transformer: pe[:, 0::2] = sin(position * div_term), pe[:, 1::2] = cos(position * div_term)), in plain Python with the standard library's functools.lru_cache and math; range() reads the sizes, so a float is its TypeError
expect: accepted
"""
import math
from functools import lru_cache

import numpy as np


@lru_cache(maxsize=None)
def _frequencies(dim, base):
    return tuple(1.0 / base ** (2 * i / dim) for i in range(dim // 2))


def sinusoidal_positions(num_positions, dim, base=10000.0):
    if dim < 2 or dim % 2 == 1:
        raise ValueError(f"dim must be a positive even number, got {dim}")
    if num_positions < 1:
        raise ValueError(f"num_positions must be at least 1, got {num_positions}")
    if not base > 0:
        raise ValueError(f"base must be > 0, got {base}")
    frequencies = _frequencies(dim, float(base))
    rows = [[g(p * f) for f in frequencies for g in (math.sin, math.cos)] for p in range(num_positions)]
    return np.array(rows, dtype=np.float64)
