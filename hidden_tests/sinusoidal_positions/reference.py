"""Trusted reference for `sinusoidal_positions`: the interleaved sin/cos table, float64 throughout."""
import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    if type(dim) is not int or dim < 2 or dim % 2:  # type(...) is int: a bool is not a size
        raise ValueError(f"dim must be an even int >= 2, got {dim!r}")
    if type(num_positions) is not int or num_positions < 1:
        raise ValueError(f"num_positions must be an int >= 1, got {num_positions!r}")
    if not base > 0:
        raise ValueError(f"base must be > 0, got {base!r}")
    exponent = np.arange(0, dim, 2, dtype=np.float64) / dim            # 2i / dim
    angle = np.arange(num_positions, dtype=np.float64)[:, None] / np.power(float(base), exponent)[None, :]
    table = np.empty((num_positions, dim), dtype=np.float64)
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table
