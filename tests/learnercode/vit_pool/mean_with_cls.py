import torch


def vit_pool(x, mode):
    if x.dim() != 3:
        raise ValueError("x must be (B, 1 + N, D)")
    if mode == "cls":
        return x[:, 0]
    if mode == "mean":
        if x.shape[1] < 2:
            raise ValueError("no patch tokens to average")
        return x.mean(dim=1)
    raise ValueError(f"unknown mode {mode}")
