"""The report's keys as a str Enum and the sizes normalised as timm does (an int repeated, a pair taken as is); no type checks.

Adapted from: huggingface/pytorch-image-models, timm/layers/helpers.py (to_2tuple) and timm/layers/patch_embed.py (PatchEmbed.grid_size, num_patches), with the counts' names in an enum.Enum as configuration code often keeps them
expect: accepted
"""
from enum import Enum


class Cost(str, Enum):
    NUM_PATCHES = "num_patches"
    NUM_TOKENS = "num_tokens"
    PATCH_DIM = "patch_dim"
    EMBED_MACS = "embed_macs"
    ATTENTION_MACS = "attention_macs"
    MLP_MACS = "mlp_macs"


def _two(size):
    pair = tuple(size) if isinstance(size, (list, tuple)) else (size, size)
    if len(pair) != 2:
        raise ValueError(f"expected one size or (height, width), got {size!r}")
    return pair


def vit_cost(image_size, patch_size, channels, dim):
    (h, w), (ph, pw) = _two(image_size), _two(patch_size)
    if min(h, w, ph, pw, channels, dim) <= 0:
        raise ValueError("every size must be positive")
    if h % ph or w % pw:
        raise ValueError("the patch does not tile the image")
    n = (h // ph) * (w // pw)
    t = n + 1
    counts = {Cost.NUM_PATCHES: n, Cost.NUM_TOKENS: t, Cost.PATCH_DIM: channels * ph * pw,
              Cost.EMBED_MACS: n * channels * ph * pw * dim, Cost.ATTENTION_MACS: 2 * t * t * dim,
              Cost.MLP_MACS: 8 * t * dim * dim}
    return {key.value: value for key, value in counts.items()}
