import torch.nn.functional as F


def patch_embed(images, weight, bias):
    """The patch embedding is a convolution with the patch as its kernel."""
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
    return F.conv2d(images, weight, bias).flatten(2).transpose(1, 2)
