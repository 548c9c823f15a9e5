"""Trusted reference for `unpatchify`: undo patchify's reshape, permute, reshape."""
import torch


def unpatchify(tokens, height, width, patch_height, patch_width):
    if not isinstance(tokens, torch.Tensor) or tokens.dim() != 3:
        raise ValueError("tokens must be a 3-D tensor (B, N, C*ph*pw)")
    for name, size in (("height", height), ("width", width), ("patch_height", patch_height),
                       ("patch_width", patch_width)):
        if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
            raise ValueError(f"{name} must be a positive integer, got {size!r}")
    if height % patch_height or width % patch_width:
        raise ValueError(f"image size {height}x{width} is not divisible by the patch size {patch_height}x{patch_width}")
    batch, count, features = tokens.shape
    rows, cols = height // patch_height, width // patch_width
    if count != rows * cols:
        raise ValueError(f"{count} tokens do not fill a {rows}x{cols} grid")
    if features % (patch_height * patch_width):
        raise ValueError(f"{features} features are not a multiple of the patch area {patch_height * patch_width}")
    channels = features // (patch_height * patch_width)
    return (tokens.reshape(batch, rows, cols, channels, patch_height, patch_width)
            .permute(0, 3, 1, 4, 2, 5)
            .reshape(batch, channels, height, width))
