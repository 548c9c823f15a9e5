import math

import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    if dim % 2 != 0 or dim < 2:
        raise ValueError("dim must be even")
    if num_positions < 1:
        raise ValueError("num_positions must be >= 1")
    if base <= 0:
        raise ValueError("base must be > 0")
    pe = np.zeros((num_positions, dim))
    position = np.arange(1, num_positions + 1).reshape(-1, 1)
    div_term = np.exp(np.arange(0, dim, 2) * -(math.log(base) / dim))
    pe[:, 0::2] = np.cos(position * div_term)
    pe[:, 1::2] = np.sin(position * div_term)
    return pe
