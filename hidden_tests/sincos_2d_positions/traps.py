"""Known mistakes for `sincos_2d_positions`, each a complete solution with one classic error."""
import numpy as np


def _emb1d(width, positions, interleaved=False, exponent_over=None):
    half = width // 2
    omega = 1.0 / 10000.0 ** (np.arange(half, dtype=np.float64) / (exponent_over or half))
    angle = np.outer(positions.astype(np.float64), omega)
    if interleaved:
        return np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(len(positions), width)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def _table(grid_height, grid_width, dim, cls_token, first="col", column_major=False, cls_row="zeros", **emb):
    n = np.arange(grid_height * grid_width)
    if column_major:
        rows, cols = n % grid_height, n // grid_height
    else:
        rows, cols = n // grid_width, n % grid_width
    col, row = _emb1d(dim // 2, cols, **emb), _emb1d(dim // 2, rows, **emb)
    table = np.concatenate([col, row] if first == "col" else [row, col], axis=1)
    if cls_token and cls_row == "zeros":
        table = np.concatenate([np.zeros((1, dim)), table], axis=0)
    elif cls_token and cls_row == "origin":
        table = np.concatenate([table[:1], table], axis=0)
    return table


def row_half_first(grid_height, grid_width, dim, cls_token=False):
    return _table(grid_height, grid_width, dim, cls_token, first="row")


def interleaved_1d(grid_height, grid_width, dim, cls_token=False):
    return _table(grid_height, grid_width, dim, cls_token, interleaved=True)


def column_major_tokens(grid_height, grid_width, dim, cls_token=False):
    return _table(grid_height, grid_width, dim, cls_token, column_major=True)


def class_row_missing(grid_height, grid_width, dim, cls_token=False):
    return _table(grid_height, grid_width, dim, cls_token, cls_row="missing")


def class_row_at_origin(grid_height, grid_width, dim, cls_token=False):
    return _table(grid_height, grid_width, dim, cls_token, cls_row="origin")


def omega_i_over_d(grid_height, grid_width, dim, cls_token=False):
    return _table(grid_height, grid_width, dim, cls_token, exponent_over=dim // 2)


def rescaled_to_base_grid(grid_height, grid_width, dim, cls_token=False, base_size=16):
    # diffusers' get_2d_sincos_pos_embed: positions arange(g) / (g / base_size), so every grid spans 0..16
    n = np.arange(grid_height * grid_width)
    rows = (n // grid_width) / (grid_height / base_size)
    cols = (n % grid_width) / (grid_width / base_size)
    table = np.concatenate([_emb1d(dim // 2, cols), _emb1d(dim // 2, rows)], axis=1)
    if cls_token:
        table = np.concatenate([np.zeros((1, dim)), table], axis=0)
    return table
