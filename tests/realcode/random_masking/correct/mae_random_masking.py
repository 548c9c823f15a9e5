"""MAE's random_masking with the noise given: argsort ascending, keep the first len_keep, unshuffle the mask.

Adapted from: facebookresearch/mae, models_mae.py (MaskedAutoencoderViT.random_masking)
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
    N, L, D = x.shape
    len_keep = int(L * (1 - mask_ratio))
    ids_shuffle = torch.argsort(noise, dim=1)
    ids_restore = torch.argsort(ids_shuffle, dim=1)
    ids_keep = ids_shuffle[:, :len_keep]
    x_masked = torch.gather(x, dim=1, index=ids_keep.unsqueeze(-1).repeat(1, 1, D))
    mask = torch.ones([N, L], dtype=x.dtype, device=x.device)
    mask[:, :len_keep] = 0
    mask = torch.gather(mask, dim=1, index=ids_restore)
    return {"kept": x_masked, "mask": mask, "ids_restore": ids_restore}
