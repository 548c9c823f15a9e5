import torch


def vit_pool(x: torch.Tensor, mode: str) -> torch.Tensor:
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    if mode == "cls":
        return x[:, 0]
    if mode == "mean":
        return x[:, 1:].mean(dim=1)   # mistake: no check for N = 0, returns NaN instead of raising
    raise ValueError("unknown mode")
