import torch
import torch.nn.functional as F


def patch_embed(images, weight, bias):
    if images.ndim != 4 or weight.ndim != 4:
        raise ValueError("expected 4-D images and weight")
    B, C, H, W = images.shape
    D, Cw, ph, pw = weight.shape
    if C != Cw:
        raise ValueError("weight channels != image channels")
    if H % ph != 0 or W % pw != 0:
        raise ValueError("H, W must be divisible by the patch size")
    if bias is not None and bias.shape != (D,):
        raise ValueError("bad bias shape")
    out = F.conv2d(images, weight, bias=bias, stride=(ph, pw))
    return out.view(B, -1, D)
