import math

import numpy as np


def sincos_2d_positions(grid_height: int, grid_width: int, dim: int, cls_token: bool = False) -> np.ndarray:
    """Token by token with math.sin / math.cos: slow but plainly the definition."""
    if dim <= 0 or dim % 4:
        raise ValueError("dim must be a positive multiple of 4")
    if grid_height < 1 or grid_width < 1:
        raise ValueError("grid sizes must be positive")
    d = dim // 2
    omegas = [1.0 / 10000 ** (i / (d / 2)) for i in range(d // 2)]

    def code(pos):
        return [math.sin(pos * w) for w in omegas] + [math.cos(pos * w) for w in omegas]

    rows = [[0.0] * dim] if cls_token else []
    for r in range(grid_height):
        for c in range(grid_width):
            rows.append(code(c) + code(r))
    return np.array(rows, dtype=np.float64)
