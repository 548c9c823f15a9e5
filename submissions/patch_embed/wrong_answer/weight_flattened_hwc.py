import torch.nn.functional as F


def patch_embed(images, weight, bias):
    """Unfold the patches and multiply by the kernel, flattened pixel by pixel (channels last)."""
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
    patches = F.unfold(images, (ph, pw), stride=(ph, pw)).transpose(1, 2)  # (B, N, C*ph*pw)
    kernel = weight.permute(0, 2, 3, 1).reshape(d, ph * pw * c)  # one row per output feature
    out = patches @ kernel.T
    return out if bias is None else out + bias
