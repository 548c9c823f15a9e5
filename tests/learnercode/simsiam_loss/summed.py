import torch
import torch.nn.functional as F


def simsiam_loss(p1, p2, z1, z2):
    for t in (p1, p2, z1, z2):
        if t.dim() != 2:
            raise ValueError("inputs must be 2-D")
    if not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("shapes differ")
    c1 = F.cosine_similarity(p1, z2.detach(), dim=1)
    c2 = F.cosine_similarity(p2, z1.detach(), dim=1)
    return -(c1.sum() + c2.sum()) / 2
