import torch
import torch.nn.functional as F


def collapse_std(z):
    if z.dim() != 2:
        raise ValueError("z must be 2-D")
    if z.shape[0] < 2:
        raise ValueError("need at least 2 rows")
    z = F.normalize(z, dim=0)
    return z.std(dim=0, unbiased=False).mean().item()
