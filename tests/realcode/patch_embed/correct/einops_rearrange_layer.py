"""vit-pytorch's to_patch_embedding: an einops Rearrange layer, then the linear map, here the given conv weight flattened.

Adapted from: lucidrains/vit-pytorch, vit_pytorch/vit.py (ViT.to_patch_embedding = nn.Sequential(Rearrange(...), nn.Linear(patch_dim, dim))), with (c p1 p2) features so the conv weight's layout fits
expect: accepted
"""
import torch
import torch.nn.functional as F
from einops.layers.torch import Rearrange


def _check(images, weight, bias):
    if images.dim() != 4 or weight.dim() != 4:
        raise ValueError("images (B, C, H, W) and weight (D, C, ph, pw)")
    if images.shape[1] != weight.shape[1]:
        raise ValueError("channel counts differ")
    if images.shape[2] % weight.shape[2] or images.shape[3] % weight.shape[3]:
        raise ValueError("the kernel must divide the image")
    if bias is not None and tuple(bias.shape) != (weight.shape[0],):
        raise ValueError("bias must be (D,)")


def patch_embed(images, weight, bias):
    _check(images, weight, bias)
    dim, _, patch_height, patch_width = weight.shape
    to_patch = Rearrange("b c (h p1) (w p2) -> b (h w) (c p1 p2)", p1=patch_height, p2=patch_width)
    return F.linear(to_patch(images), weight.reshape(dim, -1), bias)
