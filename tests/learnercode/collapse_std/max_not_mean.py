import torch
import torch.nn.functional as F


def collapse_std(z):
    if z.dim() != 2 or z.shape[0] < 2:
        raise ValueError("z must be (N, d) with N >= 2")
    out = F.normalize(z.double(), dim=1)
    std = out.std(dim=0, unbiased=False)
    return std.max().item()
