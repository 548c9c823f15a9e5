import torch


def vit_pool(x, mode):
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    if mode == "cls":
        return x[:, :1]
    elif mode == "mean":
        if x.size(1) == 1:
            raise ValueError("mean pooling needs patch tokens")
        return x[:, 1:].mean(dim=1, keepdim=True)
    else:
        raise ValueError("mode must be cls or mean")
