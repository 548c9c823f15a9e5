"""vit-pytorch's x.mean(dim = 1) if pool == "mean": the class token averaged in with the patches.

Adapted from: lucidrains/vit-pytorch, vit_pytorch/vit.py (ViT.forward)
expect: wrong_answer
mistake: mean_includes_cls
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
    return x.mean(dim=1) if mode == "mean" else x[:, 0]
