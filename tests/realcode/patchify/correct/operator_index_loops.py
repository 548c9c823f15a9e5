"""A tutorial's patch loop over the grid, each size read with operator.index (a TypeError for a float, True taken as 1).

Adapted from: the PyTorch "Vision Transformer from scratch" tutorials' naive patchify (for each image, for each grid row and column, slice the patch and flatten it), with operator.index as Python's own range() reads a size
expect: accepted
"""
import operator

import torch


def patchify(images, patch_height, patch_width):
    ph, pw = operator.index(patch_height), operator.index(patch_width)
    if images.dim() != 4:
        raise ValueError("images must be (B, C, H, W)")
    if ph <= 0 or pw <= 0:
        raise ValueError("patch sizes must be positive")
    b, c, h, w = images.shape
    if h % ph or w % pw:
        raise ValueError("the patch size must divide the image size")
    tokens, coordinates = [], []
    for r in range(h // ph):
        for col in range(w // pw):
            patch = images[:, :, r * ph:(r + 1) * ph, col * pw:(col + 1) * pw]
            tokens.append(patch.reshape(b, -1))
            coordinates.append((r, col))
    return {"tokens": torch.stack(tokens, dim=1),
            "coordinates": torch.tensor(coordinates, dtype=torch.int64).reshape(-1, 2)}
