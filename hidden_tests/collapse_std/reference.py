"""Trusted reference for `collapse_std`: SimSiam's per-channel std of L2-normalised outputs.

Computed in float64 whatever the input dtype, with the two-pass population
std, so a collapsed batch gives exactly the spread its rows have (0 when they
are equal after normalisation) and float32 inputs are judged against the
exact value.
"""
import torch
import torch.nn.functional as F


def collapse_std(z):
    if not isinstance(z, torch.Tensor) or z.dim() != 2 or not z.is_floating_point():
        raise ValueError("z must be a 2-D float tensor (N, d)")
    if z.shape[0] < 2:
        raise ValueError(f"z needs at least 2 rows to have a spread, got {z.shape[0]}")
    u = F.normalize(z.detach().double(), dim=1, eps=1e-12)
    centred = u - u.mean(dim=0, keepdim=True)
    return centred.pow(2).mean(dim=0).sqrt().mean().item()
