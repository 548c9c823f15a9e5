"""The official criterion with each prediction compared with its own view's projection.

Adapted from: facebookresearch/simsiam, main_simsiam.py (criterion(p1, z2) ... mistyped as p1, z1)
expect: wrong_answer
mistake: same_view
"""
from torch import nn


def simsiam_loss(p1, p2, z1, z2):
    if p1.dim() != 2 or not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("bad shapes")
    criterion = nn.CosineSimilarity(dim=1)
    return -(criterion(p1, z1.detach()).mean() + criterion(p2, z2.detach()).mean()) * 0.5
