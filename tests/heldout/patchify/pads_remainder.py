"""Pads the image with zeros up to a multiple of the patch size instead of raising ValueError."""
import torch
import torch.nn.functional as F


def patchify(images, patch_height, patch_width):
    if not isinstance(images, torch.Tensor) or images.dim() != 4:
        raise ValueError("images must be 4-D")
    for size in (patch_height, patch_width):
        if type(size) is not int or size <= 0:
            raise ValueError("patch sizes must be positive integers")
    pad_h = -images.shape[2] % patch_height
    pad_w = -images.shape[3] % patch_width
    images = F.pad(images, (0, pad_w, 0, pad_h))
    b, c, h, w = images.shape
    gh, gw = h // patch_height, w // patch_width
    x = images.reshape(b, c, gh, patch_height, gw, patch_width).permute(0, 2, 4, 1, 3, 5)
    tokens = x.reshape(b, gh * gw, c * patch_height * patch_width)
    grid = torch.stack([torch.arange(gh).repeat_interleave(gw), torch.arange(gw).repeat(gh)], 1)
    return {"tokens": tokens, "coordinates": grid}
