import numpy as np
import torch


def patch_embed(images, weight, bias):
    """Patches and projection in numpy, back to torch at the end."""
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
    x = images.detach().numpy().reshape(b, c, h // ph, ph, w // pw, pw).transpose(0, 2, 4, 1, 3, 5)
    out = x.reshape(b, -1, c * ph * pw) @ weight.detach().numpy().reshape(d, -1).T
    if bias is not None:
        out = out + bias.detach().numpy()
    return torch.from_numpy(np.ascontiguousarray(out))
