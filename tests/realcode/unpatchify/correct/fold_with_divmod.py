"""F.fold, the inverse of unfold, with divmod for the grid: a float size would pass through divmod and fail in fold.

Adapted from: pytorch/pytorch, torch/nn/functional.py (fold: combines an array of sliding local blocks into a tensor; with stride equal to the kernel the blocks do not overlap, so fold inverts unfold exactly), as the PyTorch forums' unpatchify answers use it
expect: accepted
"""
import torch.nn.functional as F


def unpatchify(tokens, height, width, patch_height, patch_width):
    if tokens.dim() != 3:
        raise ValueError("expected tokens of shape (B, N, F)")
    if patch_height <= 0 or patch_width <= 0 or height <= 0 or width <= 0:
        raise ValueError("sizes must be positive")
    gh, rest_h = divmod(height, patch_height)
    gw, rest_w = divmod(width, patch_width)
    if rest_h or rest_w:
        raise ValueError("the image is not a whole number of patches")
    batch, count, features = tokens.shape
    if count != gh * gw:
        raise ValueError(f"expected {gh * gw} tokens, got {count}")
    if features % (patch_height * patch_width):
        raise ValueError("features must be a multiple of patch_height * patch_width")
    return F.fold(tokens.transpose(1, 2), output_size=(height, width),
                  kernel_size=(patch_height, patch_width), stride=(patch_height, patch_width))
