import torch
import torch.nn.functional as F


def patch_embed(images, weight, bias):
    if images.dim() != 4 or weight.dim() != 4:
        raise ValueError("images and weight must be 4-D")
    if images.shape[1] != weight.shape[1]:
        raise ValueError("channel mismatch")
    ph, pw = weight.shape[-2:]
    if images.shape[-2] % ph or images.shape[-1] % pw:
        raise ValueError("size not divisible by patch")
    if bias is not None and tuple(bias.shape) != (weight.shape[0],):
        raise ValueError("bias must be (D,)")
    out = F.conv2d(images, weight, stride=(ph, pw))       # (B, D, gh, gw)
    out = out.transpose(2, 3).flatten(2)                  # tokens
    return out.transpose(1, 2)
