"""The PyTorch tutorial's PositionalEncoding buffer, kept in torch (float64) and handed back as numpy.

Adapted from: pytorch/tutorials, beginner_source/transformer_tutorial.py (PositionalEncoding.__init__: position, div_term, pe[:, 0::2] = sin, pe[:, 1::2] = cos)
expect: accepted
"""
import math

import torch


def sinusoidal_positions(num_positions, dim, base=10000.0):
    if isinstance(dim, bool) or not isinstance(dim, int) or dim < 2 or dim % 2:
        raise ValueError("dim must be an even int >= 2")
    if isinstance(num_positions, bool) or not isinstance(num_positions, int) or num_positions < 1:
        raise ValueError("num_positions must be >= 1")
    if not base > 0:
        raise ValueError("base must be > 0")
    position = torch.arange(num_positions, dtype=torch.float64).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, dim, 2, dtype=torch.float64) * (-math.log(base) / dim))
    pe = torch.zeros(num_positions, dim, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe.numpy()
