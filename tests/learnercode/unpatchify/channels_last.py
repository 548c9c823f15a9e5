import torch
from einops import rearrange


def unpatchify(tokens, height, width, patch_height, patch_width):
    if tokens.ndim != 3:
        raise ValueError("tokens must be (B, N, F)")
    if min(height, width, patch_height, patch_width) <= 0:
        raise ValueError("sizes must be positive")
    if height % patch_height or width % patch_width:
        raise ValueError("patch must divide the image")
    gh, gw = height // patch_height, width // patch_width
    if tokens.shape[1] != gh * gw:
        raise ValueError("token count does not match the grid")
    if tokens.shape[2] % (patch_height * patch_width):
        raise ValueError("features do not split into patches")
    return rearrange(tokens, "b (h w) (p1 p2 c) -> b c (h p1) (w p2)", h=gh, w=gw, p1=patch_height, p2=patch_width)
