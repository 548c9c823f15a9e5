import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    if dim < 2 or dim % 2:
        raise ValueError("dim must be even")
    if num_positions < 1:
        raise ValueError("num_positions < 1")
    if base <= 0:
        raise ValueError("base <= 0")
    half = dim // 2
    freqs = base ** (-np.arange(half) / dim)
    args = np.arange(num_positions)[:, None] * freqs[None, :]
    return np.concatenate([np.sin(args), np.cos(args)], axis=-1)
