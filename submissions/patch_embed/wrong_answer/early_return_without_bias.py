import torch.nn.functional as F


def patch_embed(images, weight, bias):
    """Strided convolution; without a bias there is nothing more to do."""
    if images.dim() != 4 or weight.dim() != 4:
        raise ValueError("images and weight must be 4-D")
    _, c, h, w = images.shape
    d, wc, ph, pw = weight.shape
    if wc != c:
        raise ValueError("channel mismatch")
    if h % ph or w % pw:
        raise ValueError("image not divisible by patch size")
    out = F.conv2d(images, weight, stride=(ph, pw))
    if bias is None:
        return out
    if bias.shape != (d,):
        raise ValueError("bad bias")
    return (out + bias[:, None, None]).flatten(2).transpose(1, 2)
