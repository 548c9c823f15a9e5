import torch


def random_masking(x, mask_ratio, noise):
    if x.dim() != 3:
        raise ValueError("x must be (B, N, D)")
    if not (0.0 <= mask_ratio < 1.0):
        raise ValueError("mask_ratio must be in [0, 1)")
    B, N, D = x.shape
    if noise.shape != (B, N):
        raise ValueError("noise must match (B, N)")
    len_keep = round(N * (1 - mask_ratio))
    ids_shuffle = torch.argsort(noise, dim=1)
    ids_restore = torch.argsort(ids_shuffle, dim=1)
    ids_keep = ids_shuffle[:, :len_keep]
    kept = torch.gather(x, 1, ids_keep.unsqueeze(-1).expand(-1, -1, D))
    mask = torch.ones(B, N, dtype=x.dtype)
    mask[:, :len_keep] = 0
    mask = torch.gather(mask, 1, ids_restore)
    return {"kept": kept, "mask": mask, "ids_restore": ids_restore}
