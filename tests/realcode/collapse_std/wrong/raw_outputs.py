"""The std of the raw projector outputs, not of their normalised directions.

Adapted from: facebookresearch/simsiam, main_simsiam.py (z logged before normalisation)
expect: wrong_answer
mistake: rows_not_normalised
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
    return z.std(dim=0, unbiased=False).mean().item()
