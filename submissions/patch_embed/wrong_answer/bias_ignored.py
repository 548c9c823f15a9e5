import torch


def patch_embed(images, weight, bias):
    """Reshape into patches and project them with the kernel."""
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
    x = images.reshape(b, c, h // ph, ph, w // pw, pw).permute(0, 2, 4, 1, 3, 5)
    patches = x.reshape(b, (h // ph) * (w // pw), c * ph * pw)
    return patches @ weight.reshape(d, -1).T
