import torch


def patch_embed(images, weight, bias):
    """Cut the image into a (gh, ph, gw, pw) grid by reshaping, then contract channels and pixels with einsum."""
    if images.dim() != 4:
        raise ValueError("images must be 4-D (B, C, H, W)")
    if weight.dim() != 4:
        raise ValueError("weight must be 4-D (D, C, ph, pw)")
    b, c, h, w = images.shape
    d, c_w, ph, pw = weight.shape
    if c != c_w:
        raise ValueError("images and weight disagree on the number of channels")
    if h % ph or w % pw:
        raise ValueError("patches must tile the image exactly")
    if bias is not None and list(bias.shape) != [d]:
        raise ValueError("bias must be a vector of length D")
    gh, gw = h // ph, w // pw
    grid = images.reshape(b, c, gh, ph, gw, pw)
    # r, g: grid row and column; y, x: pixel inside the patch
    out = torch.einsum("bcrygx,dcyx->brgd", grid, weight)
    out = out.reshape(b, gh * gw, d)
    return out if bias is None else out + bias
