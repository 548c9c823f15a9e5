"""vit-pytorch's Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)") with the features in (c, p1, p2) order, as view/permute.

Adapted from: lucidrains/vit-pytorch, vit_pytorch/vit.py (to_patch_embedding), reordered to (c p1 p2) and written without einops
expect: accepted
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
    b, c, hh, ww = images.shape
    h, w = hh // patch_height, ww // patch_width
    x = images.reshape(b, c, h, patch_height, w, patch_width)
    x = x.permute(0, 2, 4, 1, 3, 5)  # b h w c p1 p2
    return {"tokens": x.reshape(b, h * w, c * patch_height * patch_width), "coordinates": _coordinates(h, w)}
