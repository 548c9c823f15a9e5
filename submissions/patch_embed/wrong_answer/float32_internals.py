import torch
import torch.nn.functional as F


def patch_embed(images, weight, bias):
    """Unfold + matmul, in float32 like the rest of the model, cast back at the end."""
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
    patches = F.unfold(images.float(), (ph, pw), stride=(ph, pw)).transpose(1, 2)
    out = patches @ weight.float().reshape(d, -1).T
    if bias is not None:
        out = out + bias.float()
    return out.to(images.dtype)
