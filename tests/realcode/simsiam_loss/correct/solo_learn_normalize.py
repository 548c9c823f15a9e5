"""solo-learn's simsiam_loss_func (F.normalize, then a row-wise dot product), symmetrised.

Adapted from: vturrisi/solo-learn, solo/losses/simsiam.py
expect: accepted
"""
import torch
import torch.nn.functional as F


def simsiam_loss_func(p, z, simplified=True):
    if simplified:
        return -F.cosine_similarity(p, z.detach(), dim=-1).mean()
    p = F.normalize(p, dim=-1)
    z = F.normalize(z, dim=-1)
    return -(p * z.detach()).sum(dim=1).mean()


def simsiam_loss(p1, p2, z1, z2):
    for t in (p2, z1, z2):
        if t.shape != p1.shape:
            raise ValueError("shapes differ")
    if p1.dim() != 2:
        raise ValueError("inputs must be 2-D")
    return (simsiam_loss_func(p1, z2, simplified=False) + simsiam_loss_func(p2, z1, simplified=False)) / 2
