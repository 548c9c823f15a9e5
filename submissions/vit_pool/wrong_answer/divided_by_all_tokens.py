import torch


def vit_pool(x: torch.Tensor, mode: str) -> torch.Tensor:
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    if mode not in ("cls", "mean"):
        raise ValueError("unknown mode")
    if mode == "mean" and x.shape[1] < 2:
        raise ValueError("no patch tokens")
    if mode == "cls":
        return x[:, 0]
    return x[:, 1:].sum(dim=1) / x.shape[1]   # mistake: divides by 1 + N
