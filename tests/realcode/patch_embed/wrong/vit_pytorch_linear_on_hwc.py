"""vit-pytorch's (p1 p2 c) patches against a conv weight flattened (c, p1, p2).

Adapted from: lucidrains/vit-pytorch, vit_pytorch/vit.py (Rearrange "b c (h p1) (w p2) -> b (h w) (p1 p2 c)" then Linear)
expect: wrong_answer
mistake: patches_flattened_hwc
"""
import torch
import torch.nn.functional as F


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
    d, c, ph, pw = weight.shape
    b, _, hh, ww = images.shape
    h, w = hh // ph, ww // pw
    patches = images.reshape(b, c, h, ph, w, pw).permute(0, 2, 4, 3, 5, 1).reshape(b, h * w, ph * pw * c)
    out = patches @ weight.reshape(d, -1).T
    return out if bias is None else out + bias
