"""The mask returned in shuffled order (the gather with ids_restore left out).

Adapted from: facebookresearch/mae, models_mae.py (random_masking: "unshuffle to get the binary mask" dropped)
expect: wrong_answer
mistake: mask_in_shuffled_order
"""
import torch


def _check(x, mask_ratio, noise):
    if not isinstance(x, torch.Tensor) or x.dim() != 3:
        raise ValueError("x must be (B, N, D)")
    if not 0 <= mask_ratio < 1:
        raise ValueError("mask_ratio must lie in [0, 1)")
    if noise.shape != x.shape[:2]:
        raise ValueError("noise must be (B, N)")


def random_masking(x, mask_ratio, noise):
    _check(x, mask_ratio, noise)
    N, L, D = x.shape
    len_keep = int(L * (1 - mask_ratio))
    ids_shuffle = torch.argsort(noise, dim=1)
    ids_restore = torch.argsort(ids_shuffle, dim=1)
    x_masked = torch.gather(x, 1, ids_shuffle[:, :len_keep].unsqueeze(-1).repeat(1, 1, D))
    mask = torch.ones([N, L], dtype=x.dtype)
    mask[:, :len_keep] = 0
    return {"kept": x_masked, "mask": mask, "ids_restore": ids_restore}
