"""Trusted reference for `random_masking`: MAE's per-sample random masking with the noise given."""
import torch


def random_masking(x, mask_ratio, noise):
    if not isinstance(x, torch.Tensor) or x.dim() != 3:
        raise ValueError("x must be a 3-D tensor (B, N, D)")
    if isinstance(mask_ratio, bool) or not isinstance(mask_ratio, (int, float)) or not 0 <= mask_ratio < 1:
        raise ValueError(f"mask_ratio must be a number in [0, 1), got {mask_ratio!r}")
    batch, length, width = x.shape
    if not isinstance(noise, torch.Tensor) or tuple(noise.shape) != (batch, length):
        raise ValueError(f"noise must have shape ({batch}, {length})")
    len_keep = int(length * (1 - mask_ratio))
    ids_shuffle = torch.argsort(noise, dim=1)
    ids_restore = torch.argsort(ids_shuffle, dim=1)
    ids_keep = ids_shuffle[:, :len_keep]
    kept = torch.gather(x, 1, ids_keep.unsqueeze(-1).expand(-1, -1, width))
    mask = torch.ones(batch, length, dtype=x.dtype)
    mask[:, :len_keep] = 0
    mask = torch.gather(mask, 1, ids_restore)
    return {"kept": kept, "mask": mask, "ids_restore": ids_restore}
