import math

import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    """tensor2tensor's get_timing_signal_1d (min_timescale 1, max_timescale base)."""
    if dim % 2 != 0 or dim < 2:
        raise ValueError("dim must be a positive even number")
    if num_positions < 1:
        raise ValueError("need at least one position")
    if not base > 0:
        raise ValueError("base must be > 0")
    num_timescales = dim // 2
    log_timescale_increment = math.log(float(base)) / max(num_timescales - 1, 1)
    inv_timescales = np.exp(np.arange(num_timescales, dtype=np.float64) * -log_timescale_increment)
    scaled_time = np.arange(num_positions, dtype=np.float64)[:, None] * inv_timescales[None, :]
    return np.concatenate([np.sin(scaled_time), np.cos(scaled_time)], axis=1)   # mistake: halves, d/2 - 1
