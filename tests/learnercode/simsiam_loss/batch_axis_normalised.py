import torch
import torch.nn.functional as F


def simsiam_loss(p1, p2, z1, z2):
    for t in (p1, p2, z1, z2):
        if t.dim() != 2:
            raise ValueError("inputs must be 2-D")
    if not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("shapes differ")

    def D(p, z):
        p = F.normalize(p, dim=0)
        z = F.normalize(z.detach(), dim=0)
        return -(p * z).sum(dim=1).mean()

    return D(p1, z2) / 2 + D(p2, z1) / 2
