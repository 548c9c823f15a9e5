import torch
from torch import nn


def patch_embed(images, weight, bias):
    """A ViT patch embedding is nn.Conv2d(C, D, kernel_size=patch, stride=patch)."""
    if images.dim() != 4 or weight.dim() != 4:
        raise ValueError("images and weight must be 4-D")
    _, c, h, w = images.shape
    d, wc, ph, pw = weight.shape
    if wc != c:
        raise ValueError("channel mismatch")
    if h % ph or w % pw:
        raise ValueError("image not divisible by patch size")
    if bias is not None and bias.shape != (d,):
        raise ValueError("bad bias")
    proj = nn.Conv2d(c, d, kernel_size=(ph, pw), stride=(ph, pw), bias=bias is not None).to(images.dtype)
    return proj(images).flatten(2).transpose(1, 2)
