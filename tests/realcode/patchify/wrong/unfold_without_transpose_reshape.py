"""F.unfold's (B, C*ph*pw, N) reshaped to (B, N, F) instead of transposed.

Adapted from: pytorch/pytorch, torch/nn/modules/fold.py (Unfold), with .reshape where .transpose(1, 2) belongs
expect: wrong_answer
mistake: unfold_reshaped_not_transposed
"""
import torch
import torch.nn.functional as F


def _check(images, patch_height, patch_width):
    if not isinstance(images, torch.Tensor) or images.dim() != 4:
        raise ValueError("images must be (B, C, H, W)")
    for p in (patch_height, patch_width):
        if isinstance(p, bool) or not isinstance(p, int) or p < 1:
            raise ValueError("patch sizes must be positive ints")
    if images.shape[2] % patch_height or images.shape[3] % patch_width:
        raise ValueError("the image size must be divisible by the patch size")


def _coordinates(gh, gw):
    r, c = torch.meshgrid(torch.arange(gh), torch.arange(gw), indexing="ij")
    return torch.stack([r.reshape(-1), c.reshape(-1)], dim=1)


def patchify(images, patch_height, patch_width):
    _check(images, patch_height, patch_width)
    b = images.shape[0]
    gh, gw = images.shape[2] // patch_height, images.shape[3] // patch_width
    cols = F.unfold(images, kernel_size=(patch_height, patch_width), stride=(patch_height, patch_width))
    return {"tokens": cols.reshape(b, gh * gw, -1), "coordinates": _coordinates(gh, gw)}
