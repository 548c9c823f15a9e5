import torch
import torch.nn.functional as F


def collapse_std(z: torch.Tensor) -> float:
    if z.dim() != 2 or z.shape[0] < 2:
        raise ValueError("z must be (N, d) with N >= 2")
    u = F.normalize(z.float(), dim=1)
    return u.std(dim=0, correction=0).mean().item()
