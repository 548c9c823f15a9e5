import torch


def collapse_std(z):
    if z.dim() != 2:
        raise ValueError("z must be 2-D")
    if z.size(0) < 2:
        raise ValueError("z needs 2 rows")
    u = z / z.norm(dim=1, keepdim=True).clamp_min(1e-12)
    mean = u.mean(dim=0)
    var = (u ** 2).mean(dim=0) - mean ** 2
    return var.clamp_min(0).sqrt().mean().item()
