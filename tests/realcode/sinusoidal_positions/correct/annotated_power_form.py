"""The Attention Is All You Need formula PE(pos, 2i) = sin(pos / base^(2i/d)) with np.power, column pairs stacked.

Adapted from: harvardnlp/annotated-transformer, the_annotated_transformer.py (PositionalEncoding), power form
expect: accepted
"""
import math

import numpy as np


def _check(num_positions, dim, base):
    if not isinstance(dim, int) or dim < 2 or dim % 2:
        raise ValueError("dim must be an even int >= 2")
    if not isinstance(num_positions, int) or num_positions < 1:
        raise ValueError("num_positions must be >= 1")
    if not base > 0:
        raise ValueError("base must be > 0")


def sinusoidal_positions(num_positions, dim, base=10000.0):
    _check(num_positions, dim, base)
    pos = np.arange(num_positions, dtype=np.float64)[:, None]
    two_i = np.arange(0, dim, 2, dtype=np.float64)[None, :]
    angle = pos / np.power(float(base), two_i / dim)
    return np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(num_positions, dim)
