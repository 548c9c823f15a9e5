"""Known mistakes for `collapse_std`, each a complete solution with one classic error.

Computed in float64 like the reference, so a learner's float32 version of the
same mistake matches within the test's tolerance.
"""
import torch
import torch.nn.functional as F


def _std(u, dim):
    return (u - u.mean(dim=dim, keepdim=True)).pow(2).mean(dim=dim).sqrt()


def rows_not_normalised(z):
    return _std(z.double(), 0).mean().item()


def std_over_channels(z):
    return _std(F.normalize(z.double(), dim=1), 1).mean().item()


def columns_normalised(z):
    return _std(F.normalize(z.double(), dim=0), 0).mean().item()


def max_not_mean(z):
    return _std(F.normalize(z.double(), dim=1), 0).max().item()


def sample_std(z):
    return F.normalize(z.double(), dim=1).std(dim=0).mean().item()
