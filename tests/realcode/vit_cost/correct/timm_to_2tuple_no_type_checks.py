"""timm's to_2tuple for both sizes and PatchEmbed's grid, the counts as plain integer arithmetic; no argument's type checked.

Adapted from: huggingface/pytorch-image-models, timm/layers/helpers.py (to_2tuple: an iterable is made a tuple, anything else repeated twice) and timm/layers/patch_embed.py (PatchEmbed.grid_size = tuple(s // p for s, p in zip(img_size, patch_size)), num_patches = grid_size[0] * grid_size[1]); the contract's errors raised as ValueError, a wrong type left to fail (or not) as timm leaves it
expect: accepted
"""
import collections.abc
from itertools import repeat


def to_2tuple(x):
    if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
        return tuple(x)
    return tuple(repeat(x, 2))


def vit_cost(image_size, patch_size, channels, dim):
    img_size, patch = to_2tuple(image_size), to_2tuple(patch_size)
    if len(img_size) != 2 or len(patch) != 2:
        raise ValueError("sizes are an int or a (height, width) pair")
    if min(*img_size, *patch, channels, dim) < 1:
        raise ValueError("every size must be at least 1")
    if img_size[0] % patch[0] or img_size[1] % patch[1]:
        raise ValueError(f"patch {patch} does not tile image {img_size}")
    grid_size = tuple(s // p for s, p in zip(img_size, patch))
    num_patches = grid_size[0] * grid_size[1]
    num_tokens = num_patches + 1
    patch_dim = channels * patch[0] * patch[1]
    mlp_hidden = 4 * dim
    return {"num_patches": num_patches, "num_tokens": num_tokens, "patch_dim": patch_dim,
            "embed_macs": num_patches * patch_dim * dim,
            "attention_macs": 2 * num_tokens * num_tokens * dim,
            "mlp_macs": 2 * num_tokens * dim * mlp_hidden}
