"""A numpy problem answered with torch: the patch grid read off a strided Conv2d run on the meta device (shapes, no data).

Adapted from: huggingface/pytorch-image-models, timm/layers/patch_embed.py (PatchEmbed.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)), its output shape found on torch.device("meta") as shape-inference code does
expect: accepted
"""
import torch
from torch import nn


def _pair(v, name):
    if isinstance(v, bool):
        raise ValueError(f"{name} must be an int or a pair of ints")
    if isinstance(v, int):
        v = (v, v)
    if not isinstance(v, (tuple, list)) or len(v) != 2 or any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in v):
        raise ValueError(f"{name} must be a positive int or a pair of positive ints")
    return tuple(v)


def vit_cost(image_size, patch_size, channels, dim):
    img_size, patch = _pair(image_size, "image_size"), _pair(patch_size, "patch_size")
    for value, name in ((channels, "channels"), (dim, "dim")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive int")
    if img_size[0] % patch[0] or img_size[1] % patch[1]:
        raise ValueError("the patch does not tile the image")
    proj = nn.Conv2d(channels, dim, kernel_size=patch, stride=patch, bias=False, device="meta")
    _, _, gh, gw = proj(torch.empty(1, channels, *img_size, device="meta")).shape
    num_patches = gh * gw
    num_tokens = num_patches + 1
    patch_dim = proj.weight[0].numel()  # C * ph * pw: one output feature's weights
    return {"num_patches": num_patches, "num_tokens": num_tokens, "patch_dim": patch_dim,
            "embed_macs": num_patches * patch_dim * dim, "attention_macs": 2 * num_tokens ** 2 * dim,
            "mlp_macs": 8 * num_tokens * dim ** 2}
