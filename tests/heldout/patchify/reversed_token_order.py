"""Tokens listed from the bottom-right patch back to the top-left (a flip along the token axis)."""
import torch


def patchify(images, patch_height, patch_width):
    if not isinstance(images, torch.Tensor) or images.dim() != 4:
        raise ValueError("images must be 4-D")
    for size in (patch_height, patch_width):
        if type(size) is not int or size <= 0:
            raise ValueError("patch sizes must be positive integers")
    b, c, h, w = images.shape
    if h % patch_height or w % patch_width:
        raise ValueError("sizes do not divide the image")
    gh, gw = h // patch_height, w // patch_width
    x = images.reshape(b, c, gh, patch_height, gw, patch_width).permute(0, 2, 4, 1, 3, 5)
    tokens = x.reshape(b, gh * gw, c * patch_height * patch_width).flip(1)
    grid = torch.stack([torch.arange(gh).repeat_interleave(gw), torch.arange(gw).repeat(gh)], 1)
    return {"tokens": tokens, "coordinates": grid}
