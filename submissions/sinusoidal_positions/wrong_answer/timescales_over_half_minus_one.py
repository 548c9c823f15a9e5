import math

import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    """Interleaved, with tensor2tensor's timescale increment."""
    if dim % 2 != 0 or dim < 2:
        raise ValueError("dim must be a positive even number")
    if num_positions < 1:
        raise ValueError("need at least one position")
    if not base > 0:
        raise ValueError("base must be > 0")
    half = dim // 2
    increment = math.log(base) / max(half - 1, 1)   # mistake: (dim/2 - 1) in the denominator
    inv_timescales = np.exp(np.arange(half, dtype=np.float64) * -increment)
    angle = np.arange(num_positions, dtype=np.float64)[:, None] * inv_timescales[None, :]
    table = np.zeros((num_positions, dim))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table
