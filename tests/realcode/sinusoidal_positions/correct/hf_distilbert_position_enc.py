"""Hugging Face DistilBERT's create_sinusoidal_embeddings: angles pos / base ** (2 * (j // 2) / dim) for every column, sin on the even ones, cos on the odd.

Adapted from: huggingface/transformers, src/transformers/models/distilbert/modeling_distilbert.py (create_sinusoidal_embeddings: position_enc = np.array([[pos / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)] for pos in range(n_pos)]), broadcast here; out[:, 0::2] = sin(position_enc[:, 0::2]); out[:, 1::2] = cos(position_enc[:, 1::2])), with the base as an argument and a numpy table; it checks the sizes the contract names and no types
expect: accepted
"""
import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    if dim < 2 or dim % 2:
        raise ValueError("dim must be even and at least 2")
    if num_positions < 1:
        raise ValueError("num_positions must be at least 1")
    if base <= 0:
        raise ValueError("base must be positive")
    # The original's nested list comprehension, broadcast: one row of exponents 2 * (j // 2) / dim for all positions.
    j = np.arange(dim)
    position_enc = np.arange(num_positions, dtype=np.float64)[:, None] / np.power(float(base), 2 * (j // 2) / dim)
    out = np.empty((num_positions, dim), dtype=np.float64)
    out[:, 0::2] = np.sin(position_enc[:, 0::2])
    out[:, 1::2] = np.cos(position_enc[:, 1::2])
    return out
