import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    if dim < 2 or dim % 2:
        raise ValueError("dim must be even")
    if num_positions < 1:
        raise ValueError("need at least one position")
    if base <= 0:
        raise ValueError("base must be > 0")
    position = np.arange(num_positions, dtype=np.float64)[:, np.newaxis]
    div_term = np.exp(np.arange(0, dim, 2) * (-np.log(base) / dim))
    return np.concatenate([np.sin(position * div_term), np.cos(position * div_term)], axis=1)
