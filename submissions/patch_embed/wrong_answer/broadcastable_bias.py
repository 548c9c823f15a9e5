import torch
import torch.nn.functional as F


def patch_embed(images, weight, bias):
    """Unfold + matmul; the bias is added with broadcasting."""
    if images.dim() != 4 or weight.dim() != 4:
        raise ValueError("images and weight must be 4-D")
    _, c, h, w = images.shape
    d, wc, ph, pw = weight.shape
    if wc != c:
        raise ValueError("channel mismatch")
    if h % ph or w % pw:
        raise ValueError("image not divisible by patch size")
    if bias is not None and bias.shape[-1] not in (1, d):
        raise ValueError("bias does not broadcast over the features")
    out = F.unfold(images, (ph, pw), stride=(ph, pw)).transpose(1, 2) @ weight.reshape(d, -1).T
    return out if bias is None else out + bias
