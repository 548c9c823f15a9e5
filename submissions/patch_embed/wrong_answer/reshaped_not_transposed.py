import torch.nn.functional as F


def patch_embed(images, weight, bias):
    """conv2d gives (B, D, gh, gw); reshape it to (B, N, D)."""
    if images.dim() != 4 or weight.dim() != 4:
        raise ValueError("images and weight must be 4-D")
    b, c, h, w = images.shape
    d, wc, ph, pw = weight.shape
    if wc != c:
        raise ValueError("channel mismatch")
    if h % ph or w % pw:
        raise ValueError("image not divisible by patch size")
    if bias is not None and bias.shape != (d,):
        raise ValueError("bad bias")
    out = F.conv2d(images, weight, bias, stride=(ph, pw))
    return out.reshape(b, -1, d)
