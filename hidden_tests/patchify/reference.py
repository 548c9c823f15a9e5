"""Trusted reference for `patchify`: reshape into the grid, then move axes."""
import torch


def patchify(images, patch_height, patch_width):
    if not isinstance(images, torch.Tensor) or images.dim() != 4:
        raise ValueError("images must be a 4-D tensor (B, C, H, W)")
    for name, size in (("patch_height", patch_height), ("patch_width", patch_width)):
        if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
            raise ValueError(f"{name} must be a positive integer, got {size!r}")
    batch, channels, height, width = images.shape
    if height % patch_height or width % patch_width:
        raise ValueError(f"image size {height}x{width} is not divisible by the patch size "
                         f"{patch_height}x{patch_width}")
    rows, cols = height // patch_height, width // patch_width
    tokens = (images.reshape(batch, channels, rows, patch_height, cols, patch_width)
              .permute(0, 2, 4, 1, 3, 5)
              .reshape(batch, rows * cols, channels * patch_height * patch_width))
    grid_r = torch.arange(rows).repeat_interleave(cols)
    grid_c = torch.arange(cols).repeat(rows)
    return {"tokens": tokens, "coordinates": torch.stack([grid_r, grid_c], dim=1)}
