"""The tutorial's buffer as built in torch: float32, returned as a float32 array.

Adapted from: pytorch/tutorials, beginner_source/transformer_tutorial.py (PositionalEncoding: torch.zeros defaults to float32)
expect: wrong_answer
mistake: repair_float32_where_float64_belongs
"""
import math

import numpy as np


def _check(num_positions, dim, base):
    if not isinstance(dim, int) or dim < 2 or dim % 2:
        raise ValueError("dim must be an even int >= 2")
    if not isinstance(num_positions, int) or num_positions < 1:
        raise ValueError("num_positions must be >= 1")
    if not base > 0:
        raise ValueError("base must be > 0")


def sinusoidal_positions(num_positions, dim, base=10000.0):
    _check(num_positions, dim, base)
    position = np.arange(num_positions, dtype=np.float32)[:, None]
    div_term = np.exp(np.arange(0, dim, 2, dtype=np.float32) * np.float32(-math.log(base) / dim))
    pe = np.zeros((num_positions, dim), dtype=np.float32)
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe
