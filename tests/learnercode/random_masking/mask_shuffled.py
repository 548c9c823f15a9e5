import torch


def random_masking(x, mask_ratio, noise):
    if x.ndim != 3:
        raise ValueError("x must be 3-D")
    if mask_ratio < 0 or mask_ratio >= 1:
        raise ValueError("mask_ratio out of range")
    B, N, D = x.shape
    if tuple(noise.shape) != (B, N):
        raise ValueError("noise has the wrong shape")
    len_keep = int(N * (1 - mask_ratio))
    ids_shuffle = noise.argsort(dim=1)
    ids_restore = ids_shuffle.argsort(dim=1)
    kept = x[torch.arange(B)[:, None], ids_shuffle[:, :len_keep]]
    mask = torch.ones(B, N, dtype=x.dtype)
    mask[:, :len_keep] = 0.0
    return {"kept": kept, "mask": mask, "ids_restore": ids_restore}
