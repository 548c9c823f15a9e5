"""timm's PatchEmbed bookkeeping: to_2tuple on the patch size, a TypeError for what is not a size, F.unfold for the patches.

Adapted from: huggingface/pytorch-image-models, timm/layers/helpers.py (to_2tuple / _ntuple) and timm/layers/patch_embed.py (PatchEmbed's grid_size and its divisibility assertions, raised here as ValueError as the contract asks); a patch size that is not an int is a TypeError, as timm's own code raises for a bad argument type
expect: accepted
"""
import collections.abc
from itertools import repeat

import torch
import torch.nn.functional as F


def _ntuple(n):
    def parse(x):
        if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
            return tuple(x)
        return tuple(repeat(x, n))
    return parse


to_2tuple = _ntuple(2)


def patchify(images, patch_height, patch_width):
    patch_size = to_2tuple((patch_height, patch_width))
    if not all(isinstance(p, int) for p in patch_size):
        raise TypeError(f"patch_size must be ints, got {patch_size}")
    if images.dim() != 4:
        raise ValueError(f"Input image must be 4-D (B, C, H, W), got {images.dim()}-D")
    if min(patch_size) < 1:
        raise ValueError(f"patch_size must be positive, got {patch_size}")
    B, C, H, W = images.shape
    if H % patch_size[0] != 0:
        raise ValueError(f"Input height ({H}) should be divisible by patch size ({patch_size[0]}).")
    if W % patch_size[1] != 0:
        raise ValueError(f"Input width ({W}) should be divisible by patch size ({patch_size[1]}).")
    grid_size = (H // patch_size[0], W // patch_size[1])
    tokens = F.unfold(images, kernel_size=patch_size, stride=patch_size).transpose(1, 2)
    coordinates = torch.cartesian_prod(torch.arange(grid_size[0]), torch.arange(grid_size[1]))
    if coordinates.dim() == 1:   # cartesian_prod of two one-element ranges gives (2,), not (1, 2)
        coordinates = coordinates.reshape(1, 2)
    return {"tokens": tokens, "coordinates": coordinates}
