import torch
import torch.nn.functional as F


def patch_embed(images, weight, bias):
    """A strided convolution (kernel = stride = patch size), then channels last."""
    if images.dim() != 4 or weight.dim() != 4:
        raise ValueError("images and weight must be 4-D")
    _, c, h, w = images.shape
    d, wc, ph, pw = weight.shape
    if wc != c:
        raise ValueError(f"weight expects {wc} channels, images have {c}")
    if h % ph or w % pw:
        raise ValueError("the image size must be divisible by the patch size")
    if bias is not None and bias.shape != (d,):
        raise ValueError(f"bias must have shape ({d},)")
    out = F.conv2d(images, weight, bias, stride=(ph, pw))  # (B, D, gh, gw)
    return out.flatten(2).transpose(1, 2)
