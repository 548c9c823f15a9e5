"""MAE's unpatchify as one einops.rearrange call: 'b (h w) (c p1 p2) -> b c (h p1) (w p2)'.

Adapted from: facebookresearch/mae, models_mae.py (MaskedAutoencoderViT.unpatchify), written as the einops pattern vit-pytorch uses, for channel-first tokens and rectangles
expect: accepted
"""
import torch
from einops import rearrange


def _check(tokens, height, width, patch_height, patch_width):
    if not isinstance(tokens, torch.Tensor) or tokens.dim() != 3:
        raise ValueError("tokens must be (B, N, C * ph * pw)")
    for v in (height, width, patch_height, patch_width):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError("sizes must be positive ints")
    if height % patch_height or width % patch_width:
        raise ValueError("the patch must divide the image")
    if tokens.shape[1] != (height // patch_height) * (width // patch_width):
        raise ValueError("the token count does not match the grid")
    if tokens.shape[2] % (patch_height * patch_width):
        raise ValueError("features are not a multiple of ph * pw")


def unpatchify(tokens, height, width, patch_height, patch_width):
    _check(tokens, height, width, patch_height, patch_width)
    return rearrange(tokens, "b (h w) (c p1 p2) -> b c (h p1) (w p2)",
                     h=height // patch_height, p1=patch_height, p2=patch_width)
