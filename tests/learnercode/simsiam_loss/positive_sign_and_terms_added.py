import torch
import torch.nn.functional as F


def simsiam_loss(p1, p2, z1, z2):
    for t in (p1, p2, z1, z2):
        if t.dim() != 2:
            raise ValueError("inputs must be 2-D")
    if not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("shapes differ")
    cos = torch.nn.CosineSimilarity(dim=1)
    return cos(p1, z2.detach()).mean() + cos(p2, z1.detach()).mean()
