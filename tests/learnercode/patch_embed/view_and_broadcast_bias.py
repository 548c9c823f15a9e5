import torch
import torch.nn.functional as F


def patch_embed(images, weight, bias):
    if images.dim() != 4 or weight.dim() != 4:
        raise ValueError("images and weight must be 4-D")
    B, C, H, W = images.shape
    D, _, ph, pw = weight.shape
    if weight.shape[1] != C:
        raise ValueError("channel mismatch")
    if H % ph or W % pw:
        raise ValueError("image size not divisible by the patch size")
    out = F.conv2d(images, weight, stride=(ph, pw))
    out = out.reshape(B, -1, D)
    if bias is not None:
        out = out + bias
    return out
