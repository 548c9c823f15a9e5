"""The table built row by row with the math module, as a from-scratch tutorial writes it; range() reads the sizes (a float is its TypeError).

Adapted from: facebookresearch/mae, util/pos_embed.py (the 2-D sin-cos layout: column code then row code, each sin block then cos block, omega_i = 1 / 10000 ** (i / (D/4)) for a 1-D code of width D/2), written with math.sin / math.cos over Python lists as tutorials on positional encodings do
expect: accepted
"""
import math

import numpy as np


def _code(position, width):
    frequencies = [1.0 / 10000 ** (i / (width / 2)) for i in range(width // 2)]
    return [math.sin(position * f) for f in frequencies] + [math.cos(position * f) for f in frequencies]


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    if dim <= 0 or dim % 4:
        raise ValueError(f"dim={dim} must be a positive multiple of 4")
    if grid_height < 1 or grid_width < 1:
        raise ValueError("the grid must have at least one row and one column")
    rows = [[0.0] * dim] if cls_token else []
    for r in range(grid_height):
        for c in range(grid_width):
            rows.append(_code(c, dim // 2) + _code(r, dim // 2))
    return np.array(rows, dtype=np.float64)
