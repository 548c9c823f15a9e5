"""A notebook's patchify that prints its shapes as it goes (a learner's debugging habit): view into the grid, permute, reshape.

Adapted from: the D2L / UvA deep-learning course ViT notebooks (img_to_patch: x.reshape(B, C, H // p, p, W // p, p), x.permute(0, 2, 4, 1, 3, 5), x.flatten(1, 2), x.flatten(2, 4)), for rectangular patches, with the prints left in; no type checks, as the notebook has none
expect: accepted
"""
import torch


def img_to_patch(x, patch_height, patch_width):
    B, C, H, W = x.shape
    x = x.reshape(B, C, H // patch_height, patch_height, W // patch_width, patch_width)
    print("grid view:", tuple(x.shape))
    x = x.permute(0, 2, 4, 1, 3, 5)      # [B, H', W', C, p_H, p_W]
    x = x.flatten(1, 2)                  # [B, H'*W', C, p_H, p_W]
    x = x.flatten(2, 4)                  # [B, H'*W', C*p_H*p_W]
    print("tokens:", tuple(x.shape), x.dtype)
    return x


def patchify(images, patch_height, patch_width):
    if images.dim() != 4:
        raise ValueError(f"expected a batch of images (B, C, H, W), got shape {tuple(images.shape)}")
    if patch_height < 1 or patch_width < 1:
        raise ValueError("patch sizes must be at least 1")
    if images.shape[-2] % patch_height or images.shape[-1] % patch_width:
        raise ValueError("image size not divisible by the patch size")
    tokens = img_to_patch(images, patch_height, patch_width)
    gh, gw = images.shape[-2] // patch_height, images.shape[-1] // patch_width
    coordinates = torch.stack([torch.arange(gh).repeat_interleave(gw), torch.arange(gw).repeat(gh)], dim=1)
    print(f"{len(coordinates)} patches on a {gh}x{gw} grid")
    return {"tokens": tokens, "coordinates": coordinates}
