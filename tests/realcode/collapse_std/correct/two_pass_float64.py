"""A two-pass variance in float64 over the normalised outputs, as a monitoring hook would log it.

Adapted from: facebookresearch/simsiam, main_simsiam.py (training loop), with the collapse monitor of the paper's Section 4.1
expect: accepted
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
    u = z.double()
    u = u / u.norm(dim=1, keepdim=True).clamp_min(1e-12)
    centred = u - u.mean(dim=0, keepdim=True)
    return float(centred.pow(2).mean(dim=0).sqrt().mean())
