import torch


def simsiam_loss(p1, p2, z1, z2):
    for t in (p1, p2, z1, z2):
        if t.dim() != 2:
            raise ValueError("inputs must be 2-D")
    if not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("shapes differ")
    d1 = -(p1 * z1.detach()).sum(dim=1).mean()
    d2 = -(p2 * z2.detach()).sum(dim=1).mean()
    return 0.5 * (d1 + d2)
