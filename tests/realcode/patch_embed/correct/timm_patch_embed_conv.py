"""timm's PatchEmbed: a kernel = stride convolution, then flatten(2).transpose(1, 2) to NLC.

Adapted from: huggingface/pytorch-image-models, timm/layers/patch_embed.py (PatchEmbed.forward, flatten=True)
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
    x = F.conv2d(images, weight, bias, stride=tuple(weight.shape[2:]))
    return x.flatten(2).transpose(1, 2)
