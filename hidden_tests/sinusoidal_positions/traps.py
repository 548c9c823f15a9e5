"""Known mistakes for `sinusoidal_positions`, each a complete solution with one classic error."""
import numpy as np


def _angles(num_positions, dim, base, exponent_step=2, start=0):
    exponent = np.arange(dim // 2, dtype=np.float64) * exponent_step / dim
    positions = np.arange(start, start + num_positions, dtype=np.float64)
    return positions[:, None] / np.power(float(base), exponent)[None, :]


def _interleave(first, second):
    table = np.empty((first.shape[0], 2 * first.shape[1]), dtype=first.dtype)
    table[:, 0::2] = first
    table[:, 1::2] = second
    return table


def halves(num_positions, dim, base=10000.0):
    angle = _angles(num_positions, dim, base)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def exponent_i_over_dim(num_positions, dim, base=10000.0):
    angle = _angles(num_positions, dim, base, exponent_step=1)
    return _interleave(np.sin(angle), np.cos(angle))


def sin_cos_swapped(num_positions, dim, base=10000.0):
    angle = _angles(num_positions, dim, base)
    return _interleave(np.cos(angle), np.sin(angle))


def positions_from_one(num_positions, dim, base=10000.0):
    angle = _angles(num_positions, dim, base, start=1)
    return _interleave(np.sin(angle), np.cos(angle))


def float32_table(num_positions, dim, base=10000.0):
    angle = _angles(num_positions, dim, base).astype(np.float32)
    return _interleave(np.sin(angle), np.cos(angle))


def _t2t_angles(num_positions, dim, base):
    # tensor2tensor's get_timing_signal_1d: log_timescale_increment = log(base) / (num_timescales - 1)
    half = dim // 2
    increment = np.log(float(base)) / max(half - 1, 1)
    inv_timescales = np.exp(np.arange(half, dtype=np.float64) * -increment)
    return np.arange(num_positions, dtype=np.float64)[:, None] * inv_timescales[None, :]


def timescales_over_half_minus_one(num_positions, dim, base=10000.0):
    angle = _t2t_angles(num_positions, dim, base)
    return _interleave(np.sin(angle), np.cos(angle))


def tensor2tensor_timing_signal(num_positions, dim, base=10000.0):
    angle = _t2t_angles(num_positions, dim, base)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
