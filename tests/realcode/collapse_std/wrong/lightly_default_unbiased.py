"""lightly's std_of_l2_normalized as written: torch.std's default is the sample std (N - 1).

Adapted from: lightly-ai/lightly, lightly/utils/debug.py (std_of_l2_normalized)
expect: wrong_answer
mistake: sample_std
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
    z_norm = torch.nn.functional.normalize(z, dim=1)
    return torch.std(z_norm, dim=0).mean()
