import torch


def random_masking(x, mask_ratio, noise):
    if x.dim() != 3:
        raise ValueError("x must be (B, N, D)")
    if not 0 <= mask_ratio < 1:
        raise ValueError("mask_ratio must be in [0, 1)")
    B, N, D = x.shape
    if noise.shape != (B, N):
        raise ValueError("noise must be (B, N)")
    len_keep = int(N * (1 - mask_ratio))
    perm = torch.argsort(noise[0], descending=True)      # one shuffle
    ids_shuffle = perm.unsqueeze(0).expand(B, N)
    ids_restore = torch.argsort(ids_shuffle, dim=1)
    kept = x[:, perm[:len_keep]]
    mask = torch.ones(B, N, dtype=x.dtype)
    mask[:, :len_keep] = 0
    mask = torch.gather(mask, 1, ids_restore)
    return {"kept": kept, "mask": mask, "ids_restore": ids_restore}
