import torch


def vit_pool(x, mode):
    if x.ndim != 3:
        raise ValueError("expected 3-D input")
    if mode not in ("cls", "mean"):
        raise ValueError("mode must be 'cls' or 'mean'")
    if mode == "cls":
        return x[:, -1, :]
    if x.shape[1] <= 1:
        raise ValueError("no patches")
    return x[:, 1:, :].mean(dim=1)
