"""The mask built by scattering ones at the removed ids (as lightly's random_token_mask indexes them), kept by indexing.

Adapted from: lightly-ai/lightly, lightly/models/utils.py (random_token_mask, set_at_index), with MAE's ordering
expect: accepted
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
    batch, length, dim = x.shape
    len_keep = int(length * (1 - mask_ratio))
    ids_shuffle = noise.argsort(dim=1)
    ids_restore = ids_shuffle.argsort(dim=1)
    rows = torch.arange(batch)[:, None]
    kept = x[rows, ids_shuffle[:, :len_keep]]
    mask = torch.zeros(batch, length, dtype=x.dtype)
    mask[rows, ids_shuffle[:, len_keep:]] = 1
    return {"kept": kept, "mask": mask, "ids_restore": ids_restore}
