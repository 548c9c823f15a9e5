"""F.unfold's (B, F, N) output returned without the transpose to (B, N, F)."""
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
    k = (patch_height, patch_width)
    tokens = F.unfold(images, k, stride=k)
    gh, gw = h // patch_height, w // patch_width
    grid = torch.stack([torch.arange(gh).repeat_interleave(gw), torch.arange(gw).repeat(gh)], 1)
    return {"tokens": tokens, "coordinates": grid}
