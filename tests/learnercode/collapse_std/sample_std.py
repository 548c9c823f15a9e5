import torch
import torch.nn.functional as F


def collapse_std(z):
    if z.ndim != 2:
        raise ValueError("expected (N, d)")
    if z.shape[0] < 2:
        raise ValueError("at least two rows needed")
    output = F.normalize(z, dim=1)
    return torch.std(output, 0).mean().item()
