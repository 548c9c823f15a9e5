"""fairseq's increment, log(base) / (half_dim - 1), kept while the columns are interleaved as required.

Adapted from: facebookresearch/fairseq, fairseq/modules/sinusoidal_positional_embedding.py (get_embedding), interleaved
expect: wrong_answer
mistake: timescales_over_half_minus_one
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
    half_dim = dim // 2
    emb = math.log(base) / max(half_dim - 1, 1)
    emb = np.exp(np.arange(half_dim, dtype=np.float64) * -emb)
    emb = np.arange(num_positions, dtype=np.float64)[:, None] * emb[None, :]
    out = np.empty((num_positions, dim))
    out[:, 0::2], out[:, 1::2] = np.sin(emb), np.cos(emb)
    return out
