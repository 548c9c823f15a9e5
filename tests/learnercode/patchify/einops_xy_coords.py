import torch
from einops import rearrange


def patchify(images, patch_height, patch_width):
    if images.dim() != 4:
        raise ValueError("need 4 dims")
    if patch_height < 1 or patch_width < 1:
        raise ValueError("patch must be >= 1")
    _, _, H, W = images.shape
    if H % patch_height or W % patch_width:
        raise ValueError("not divisible")
    tokens = rearrange(images, "b c (h p1) (w p2) -> b (h w) (c p1 p2)", p1=patch_height, p2=patch_width)
    ys, xs = torch.meshgrid(torch.arange(H // patch_height), torch.arange(W // patch_width), indexing="ij")
    # (x, y) of every patch
    coordinates = torch.stack([xs.reshape(-1), ys.reshape(-1)], dim=-1)
    return {"tokens": tokens, "coordinates": coordinates}
