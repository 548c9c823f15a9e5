import torch
import torch.nn.functional as F


def patch_embed(images, weight, bias):
    if images.dim() != 4 or weight.dim() != 4:
        raise ValueError("images and weight must be 4-D")
    if weight.shape[1] != images.shape[1]:
        raise ValueError("channel mismatch")
    ph, pw = weight.shape[2], weight.shape[3]
    if images.shape[2] % ph or images.shape[3] % pw:
        raise ValueError("image size not divisible by the kernel")
    if bias is not None and tuple(bias.shape) != (weight.shape[0],):
        raise ValueError("bias must have shape (D,)")
    out = F.conv2d(images, weight, bias, stride=(ph, pw))   # (B, D, gh, gw)
    return out.flatten(2)
