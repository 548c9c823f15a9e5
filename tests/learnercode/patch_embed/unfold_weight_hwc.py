import torch
import torch.nn.functional as F


def patch_embed(images, weight, bias):
    if images.dim() != 4 or weight.dim() != 4:
        raise ValueError("4-D tensors expected")
    B, C, H, W = images.shape
    D, Cw, ph, pw = weight.shape
    if Cw != C:
        raise ValueError("channels differ")
    if H % ph or W % pw:
        raise ValueError("not divisible")
    if bias is not None and tuple(bias.shape) != (D,):
        raise ValueError("bias shape")
    patches = F.unfold(images, (ph, pw), stride=(ph, pw)).transpose(1, 2)   # (B, N, C*ph*pw)
    w = weight.permute(0, 2, 3, 1).reshape(D, -1)                          # one row per output feature
    out = patches @ w.T
    if bias is not None:
        out = out + bias
    return out
