import torch


def vit_pool(x, mode):
    if x.dim() != 3:
        raise ValueError("x must be (B, T, D)")
    mode = mode.lower()
    if mode == "cls":
        return x[:, 0]
    if mode == "mean":
        if x.shape[1] < 2:
            raise ValueError("no patch tokens")
        return x[:, 1:].sum(dim=1) / x.shape[1]
    raise ValueError("mode must be 'cls' or 'mean'")
