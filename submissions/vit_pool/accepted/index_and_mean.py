import torch


def vit_pool(x: torch.Tensor, mode: str) -> torch.Tensor:
    if x.dim() != 3:
        raise ValueError(f"x must be (B, 1 + N, D), got shape {tuple(x.shape)}")
    if mode == "cls":
        return x[:, 0]
    if mode == "mean":
        if x.shape[1] < 2:
            raise ValueError("mean pooling needs at least one patch token")
        return x[:, 1:].mean(dim=1)
    raise ValueError(f"unknown mode {mode!r}: expected 'cls' or 'mean'")
