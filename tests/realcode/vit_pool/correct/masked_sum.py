"""A masked average as in pooling layers that skip special tokens: sum of the patch tokens over their count.

Adapted from: huggingface/transformers, src/transformers/models/vit/modeling_vit.py (ViTPooler takes token 0; the mean skips it)
expect: accepted
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
    if mode == "cls":
        return x[:, 0, :]
    weights = torch.ones(x.shape[1], dtype=x.dtype)
    weights[0] = 0
    return (x * weights[None, :, None]).sum(dim=1) / weights.sum()
