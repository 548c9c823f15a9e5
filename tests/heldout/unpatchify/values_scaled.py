"""Denormalises the pixels with a stray * 255 (images in [0, 255]) on the way out."""
import torch


def unpatchify(tokens, height, width, patch_height, patch_width):
    if tokens.dim() != 3:
        raise ValueError("tokens must be 3-D")
    for size in (height, width, patch_height, patch_width):
        if type(size) is not int or size <= 0:
            raise ValueError("sizes must be positive integers")
    if height % patch_height or width % patch_width:
        raise ValueError("sizes do not divide the image")
    b, n, f = tokens.shape
    gh, gw = height // patch_height, width // patch_width
    if n != gh * gw or f % (patch_height * patch_width):
        raise ValueError("tokens do not fit the grid")
    c = f // (patch_height * patch_width)
    x = tokens.reshape(b, gh, gw, c, patch_height, patch_width).permute(0, 3, 1, 4, 2, 5)
    return x.reshape(b, c, height, width) * 255
