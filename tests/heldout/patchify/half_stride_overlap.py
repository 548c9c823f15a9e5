"""Overlapping patches: unfold with half the patch size as stride (a 50% overlap)."""
import torch
import torch.nn.functional as F


def patchify(images, patch_height, patch_width):
    if not isinstance(images, torch.Tensor) or images.dim() != 4:
        raise ValueError("images must be 4-D")
    for size in (patch_height, patch_width):
        if type(size) is not int or size <= 0:
            raise ValueError("patch sizes must be positive integers")
    b, c, h, w = images.shape
    if h % patch_height or w % patch_width:
        raise ValueError("sizes do not divide the image")
    stride = (max(1, patch_height // 2), max(1, patch_width // 2))
    tokens = F.unfold(images, (patch_height, patch_width), stride=stride).transpose(1, 2)
    gh, gw = h // patch_height, w // patch_width
    rows = torch.arange(gh).repeat_interleave(gw)
    cols = torch.arange(gw).repeat(gh)
    return {"tokens": tokens, "coordinates": torch.stack([rows, cols], 1)}
