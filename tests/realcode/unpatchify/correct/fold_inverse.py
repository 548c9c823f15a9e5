"""F.fold with kernel = stride = the patch: the exact inverse of the unfold patchify.

Adapted from: pytorch/pytorch, torch/nn/modules/fold.py (Fold), inverse of the unfold layout
expect: accepted
"""
import torch
import torch.nn.functional as F


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
    return F.fold(tokens.transpose(1, 2), output_size=(height, width), kernel_size=(patch_height, patch_width),
                  stride=(patch_height, patch_width))
