"""MAE's patchify: reshape into the grid, one einsum to move the axes; the patch size used as given.

Adapted from: facebookresearch/mae, models_mae.py (MaskedAutoencoderViT.patchify: reshape to (N, C, h, p, w, p), torch.einsum('nchpwq->nhwpqc')), with rectangular patches and the (C, ph, pw) order the contract asks for ('nchpwq->nhwcpq'); like MAE it checks no argument's type (a float patch size fails in reshape with TypeError)
expect: accepted
"""
import torch


def patchify(images, patch_height, patch_width):
    if images.ndim != 4:
        raise ValueError(f"expected (N, C, H, W) images, got {tuple(images.shape)}")
    if patch_height < 1 or patch_width < 1:
        raise ValueError("patch sizes must be at least 1")
    n, c, height, width = images.shape
    if height % patch_height != 0 or width % patch_width != 0:
        raise ValueError(f"{height}x{width} is not divisible by {patch_height}x{patch_width}")
    h, w = height // patch_height, width // patch_width
    x = images.reshape(shape=(n, c, h, patch_height, w, patch_width))
    x = torch.einsum("nchpwq->nhwcpq", x)
    x = x.reshape(shape=(n, h * w, c * patch_height * patch_width))
    rows, cols = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    return {"tokens": x, "coordinates": torch.stack([rows.flatten(), cols.flatten()], dim=1)}
