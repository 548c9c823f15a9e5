"""The std of each output vector across its features (dim=1) instead of each channel across the batch.

Adapted from: lightly-ai/lightly, lightly/utils/debug.py (std_of_l2_normalized with dim=1)
expect: wrong_answer
mistake: std_over_channels
"""
import torch
import torch.nn.functional as F


def _check(z):
    if not isinstance(z, torch.Tensor) or z.dim() != 2:
        raise ValueError("z must be a 2-D tensor (N, d)")
    if z.shape[0] < 2:
        raise ValueError("need at least two rows for a spread")


def collapse_std(z):
    _check(z)
    z_norm = F.normalize(z, dim=1)
    return torch.std(z_norm, dim=1, unbiased=False).mean().item()
