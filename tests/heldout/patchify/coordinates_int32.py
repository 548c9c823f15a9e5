"""Coordinates built with dtype=torch.int32 (as some export code needs) instead of int64."""
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
    tokens = x.reshape(b, gh * gw, c * patch_height * patch_width)
    rows = torch.arange(gh, dtype=torch.int32).repeat_interleave(gw)
    cols = torch.arange(gw, dtype=torch.int32).repeat(gh)
    return {"tokens": tokens, "coordinates": torch.stack([rows, cols], 1)}
