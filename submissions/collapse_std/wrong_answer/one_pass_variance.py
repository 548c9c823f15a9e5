import torch
import torch.nn.functional as F


def collapse_std(z: torch.Tensor) -> float:
    if z.dim() != 2 or z.shape[0] < 2:
        raise ValueError("z must be (N, d) with N >= 2")
    u = F.normalize(z, dim=1)
    # Var[x] = E[x^2] - E[x]^2, one pass over the data
    var = (u * u).mean(dim=0) - u.mean(dim=0) ** 2
    return var.clamp_min(0).sqrt().mean().item()
