"""vit-pytorch's patch pattern as one einops.rearrange call, the features grouped (c p1 p2) as the contract lays them out.

Adapted from: lucidrains/vit-pytorch, vit_pytorch/vit.py (ViT.to_patch_embedding's 'b c (h p1) (w p2) -> b (h w) (p1 p2 c)'), called as the einops function with (c p1 p2)
expect: accepted
"""
import torch
from einops import rearrange


def _check(images, patch_height, patch_width):
    if not isinstance(images, torch.Tensor) or images.dim() != 4:
        raise ValueError("images must be (B, C, H, W)")
    for p in (patch_height, patch_width):
        if isinstance(p, bool) or not isinstance(p, int) or p < 1:
            raise ValueError("patch sizes must be positive ints")
    if images.shape[2] % patch_height or images.shape[3] % patch_width:
        raise ValueError("the image size must be divisible by the patch size")


def patchify(images, patch_height, patch_width):
    _check(images, patch_height, patch_width)
    tokens = rearrange(images, "b c (h p1) (w p2) -> b (h w) (c p1 p2)", p1=patch_height, p2=patch_width)
    h, w = images.shape[2] // patch_height, images.shape[3] // patch_width
    grid = torch.stack(torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij"))
    return {"tokens": tokens, "coordinates": rearrange(grid, "two h w -> (h w) two")}
