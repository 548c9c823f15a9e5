"""tensor2tensor's get_timing_signal_1d: timescales stepped by log(max/min) / (num_timescales - 1), sin | cos halves.

Adapted from: tensorflow/tensor2tensor, tensor2tensor/layers/common_attention.py (get_timing_signal_1d)
expect: wrong_answer
mistake: tensor2tensor_timing_signal
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
    min_timescale, max_timescale = 1.0, float(base)
    position = np.arange(num_positions, dtype=np.float64)
    num_timescales = dim // 2
    log_timescale_increment = math.log(max_timescale / min_timescale) / max(num_timescales - 1, 1)
    inv_timescales = min_timescale * np.exp(np.arange(num_timescales, dtype=np.float64) * -log_timescale_increment)
    scaled_time = position[:, None] * inv_timescales[None, :]
    return np.concatenate([np.sin(scaled_time), np.cos(scaled_time)], axis=1)
