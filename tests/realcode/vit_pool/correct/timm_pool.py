"""timm's VisionTransformer.pool: the prefix tokens dropped before "avg", token 0 for "token".

Adapted from: huggingface/pytorch-image-models, timm/models/vision_transformer.py (VisionTransformer.pool / forward_head)
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
    num_prefix_tokens = 1
    global_pool = "avg" if mode == "mean" else "token"
    if global_pool == "avg":
        return x[:, num_prefix_tokens:].mean(dim=1)
    return x[:, 0]
