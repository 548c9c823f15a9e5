"""Accepts sizes that do not divide the image and returns the cropped grid instead of raising ValueError."""
import torch


def unpatchify(tokens, height, width, patch_height, patch_width):
    if tokens.dim() != 3:
        raise ValueError("tokens must be 3-D")
    for size in (height, width, patch_height, patch_width):
        if type(size) is not int or size <= 0:
            raise ValueError("sizes must be positive integers")
    b, n, f = tokens.shape
    gh, gw = height // patch_height, width // patch_width
    if n != gh * gw or f % (patch_height * patch_width):
        raise ValueError("tokens do not fit the grid")
    c = f // (patch_height * patch_width)
    x = tokens.reshape(b, gh, gw, c, patch_height, patch_width).permute(0, 3, 1, 4, 2, 5)
    return x.reshape(b, c, gh * patch_height, gw * patch_width)
