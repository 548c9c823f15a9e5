import torch


def collapse_std(z: torch.Tensor) -> float:
    if z.dim() != 2 or z.shape[0] < 2:
        raise ValueError("z must be (N, d) with N >= 2")
    z /= z.norm(dim=1, keepdim=True).clamp_min(1e-12)
    return z.std(dim=0, correction=0).mean().item()
