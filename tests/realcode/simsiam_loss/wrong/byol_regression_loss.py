"""BYOL's loss, 2 - 2 cos, put where SimSiam's negative cosine belongs.

Adapted from: vturrisi/solo-learn, solo/losses/byol.py (byol_loss_func)
expect: wrong_answer
mistake: byol_form
"""
import torch
import torch.nn.functional as F


def byol_loss_func(p, z):
    p = F.normalize(p, dim=-1)
    z = F.normalize(z, dim=-1)
    return 2 - 2 * (p * z.detach()).sum(dim=1).mean()


def simsiam_loss(p1, p2, z1, z2):
    if p1.dim() != 2 or not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("bad shapes")
    return (byol_loss_func(p1, z2) + byol_loss_func(p2, z1)) / 2
