"""The pooling mode as an Enum of strings: PoolType(mode) raises ValueError for anything else, as the contract asks.

Adapted from: huggingface/pytorch-image-models, timm/layers/adaptive_avgmax_pool.py (the pool_type strings) and timm/models/vision_transformer.py (global_pool 'token' / 'avg'), written as an enum.Enum as in torchvision's InterpolationMode
expect: accepted
"""
import enum

import torch


class PoolType(str, enum.Enum):
    CLS = "cls"
    MEAN = "mean"


def vit_pool(x, mode):
    if not isinstance(x, torch.Tensor) or x.dim() != 3:
        raise ValueError("x must be (B, 1 + N, D)")
    pool = PoolType(mode)  # ValueError: 'CLS' is not a valid PoolType
    if pool is PoolType.CLS:
        return x[:, 0]
    if x.shape[1] < 2:
        raise ValueError("mean pooling needs at least one patch token")
    return x[:, 1:].mean(dim=1)
