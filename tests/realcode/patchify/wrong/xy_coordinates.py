"""Coordinates as (x, y) = (column, row), the convention of image libraries, instead of (row, col).

Adapted from: huggingface/pytorch-image-models, timm/layers/pos_embed_sincos.py (build_fourier_pos_embed: meshgrid of (x, y))
expect: wrong_answer
mistake: xy_coordinates
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
    b, c = images.shape[:2]
    gh, gw = images.shape[2] // patch_height, images.shape[3] // patch_width
    x = images.reshape(b, c, gh, patch_height, gw, patch_width).permute(0, 2, 4, 1, 3, 5)
    ys, xs = torch.meshgrid(torch.arange(gh), torch.arange(gw), indexing="ij")
    coords = torch.stack([xs.reshape(-1), ys.reshape(-1)], dim=1)
    return {"tokens": x.reshape(b, gh * gw, -1), "coordinates": coords}
