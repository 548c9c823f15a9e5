import torch
import torch.nn.functional as F


def collapse_std(z: torch.Tensor) -> float:
    if z.dim() != 2:
        raise ValueError("z must be 2-D")
    return F.normalize(z, dim=1).std(dim=0, correction=0).mean().item()
