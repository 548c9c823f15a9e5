import torch
import torch.nn.functional as F


def collapse_std(z):
    if z.dim() != 2 or z.shape[0] < 2:
        raise ValueError("z must be (N, d), N >= 2")
    u = F.normalize(z.double(), p=2, dim=0)
    return u.std(0, unbiased=False).max().item()
