import math

import numpy as np


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    """MoCo v3's layout: four quarters [sin(w), cos(w), sin(h), cos(h)], each dim/4 wide."""
    if not (dim > 0 and dim % 4 == 0):
        raise ValueError(f"dim={dim} is not a positive multiple of 4")
    if min(grid_height, grid_width) < 1:
        raise ValueError("empty grid")
    quarter = dim // 4
    omega = np.exp(-math.log(10000.0) * np.arange(quarter) / quarter)
    rows, cols = np.meshgrid(np.arange(grid_height), np.arange(grid_width), indexing="ij")
    out_w = cols.reshape(-1, 1) * omega
    out_h = rows.reshape(-1, 1) * omega
    table = np.hstack([np.sin(out_w), np.cos(out_w), np.sin(out_h), np.cos(out_h)])
    if cls_token:
        table = np.vstack([np.zeros((1, dim)), table])
    return table
