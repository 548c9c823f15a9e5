import numpy as np


def _sincos_1d(width, pos):
    """pos: any shape, flattened to (M,); returns (M, width) = [sin(pos * omega), cos(pos * omega)]."""
    omega = np.arange(width // 2, dtype=np.float64)
    omega /= width / 2.0
    omega = 1.0 / 10000 ** omega
    out = np.einsum("m,d->md", pos.reshape(-1), omega)
    return np.concatenate([np.sin(out), np.cos(out)], axis=1)


def sincos_2d_positions(grid_height, grid_width, dim, cls_token=False):
    """As MAE's get_2d_sincos_pos_embed, for a rectangular grid: meshgrid(w, h), width first."""
    if dim <= 0 or dim % 4 != 0:
        raise ValueError("dim must be a positive multiple of 4")
    if grid_height <= 0 or grid_width <= 0:
        raise ValueError("grid sizes must be positive")
    grid_h = np.arange(grid_height, dtype=np.float64)
    grid_w = np.arange(grid_width, dtype=np.float64)
    grid = np.stack(np.meshgrid(grid_w, grid_h), axis=0)  # (2, gh, gw); grid[0] is the column
    emb = np.concatenate([_sincos_1d(dim // 2, grid[0]), _sincos_1d(dim // 2, grid[1])], axis=1)
    if cls_token:
        emb = np.concatenate([np.zeros([1, dim]), emb], axis=0)
    return emb
