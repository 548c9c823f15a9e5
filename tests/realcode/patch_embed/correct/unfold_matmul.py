"""Patches by unfold, then one matrix product with the weight flattened (C, ph, pw), as a linear patch embedding.

Adapted from: lucidrains/vit-pytorch, vit_pytorch/vit.py (to_patch_embedding: patches then nn.Linear), in (c p1 p2) order
expect: accepted
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
    patches = F.unfold(images, kernel_size=(ph, pw), stride=(ph, pw)).transpose(1, 2)
    out = patches @ weight.reshape(d, -1).T
    return out if bias is None else out + bias
