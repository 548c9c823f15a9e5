"""The average kept as a (B, 1, D) token, as a model that pools into a sequence keeps it (keepdim=True).

Adapted from: facebookresearch/mae, models_vit.py (global_pool: x[:, 1:, :].mean(dim=1, keepdim=True) style)
expect: wrong_answer
mistake: keepdim
"""
import torch


def _check(x, mode):
    if not isinstance(x, torch.Tensor) or x.dim() != 3:
        raise ValueError("x must be (B, 1 + N, D)")
    if mode not in ("cls", "mean"):
        raise ValueError(f"unknown mode {mode!r}")
    if mode == "mean" and x.shape[1] < 2:
        raise ValueError("mean pooling needs at least one patch token")


def vit_pool(x, mode):
    _check(x, mode)
    if mode == "mean":
        return x[:, 1:, :].mean(dim=1, keepdim=True)
    return x[:, :1, :]
