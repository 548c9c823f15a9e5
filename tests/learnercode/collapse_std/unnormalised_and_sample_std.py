import torch


def collapse_std(z):
    if z.dim() != 2 or z.shape[0] < 2:
        raise ValueError("bad input")
    return z.double().std(dim=0).mean().item()
