"""SimSiam's training criterion, nn.CosineSimilarity(dim=1), negated and crossed over the views.

Adapted from: facebookresearch/simsiam, main_simsiam.py (criterion) and simsiam/builder.py (z detached)
expect: accepted
"""
import torch
from torch import nn


def simsiam_loss(p1, p2, z1, z2):
    if any(t.dim() != 2 for t in (p1, p2, z1, z2)) or not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("p1, p2, z1, z2 must be 2-D tensors of one shape")
    criterion = nn.CosineSimilarity(dim=1)
    return -(criterion(p1, z2.detach()).mean() + criterion(p2, z1.detach()).mean()) * 0.5
