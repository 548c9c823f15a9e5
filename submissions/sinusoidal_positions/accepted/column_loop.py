import math

import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    """One pair of columns at a time, frequencies via exp(-2i/dim * log(base)) as in the PyTorch tutorial."""
    if dim % 2 != 0 or dim < 2:
        raise ValueError(f"dim must be a positive even number, got {dim}")
    if num_positions <= 0:
        raise ValueError("need at least one position")
    if not base > 0:
        raise ValueError("base must be > 0")
    position = np.arange(num_positions, dtype=np.float64)
    columns = []
    for i in range(dim // 2):
        frequency = math.exp(-(2 * i / dim) * math.log(base))
        columns.append(np.sin(position * frequency))
        columns.append(np.cos(position * frequency))
    return np.stack(columns, axis=1)
