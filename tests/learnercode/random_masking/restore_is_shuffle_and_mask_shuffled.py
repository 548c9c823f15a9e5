import torch


def random_masking(x, mask_ratio, noise):
    if x.dim() != 3:
        raise ValueError("x must be (B, N, D)")
    if not 0 <= mask_ratio < 1:
        raise ValueError("mask_ratio must be in [0, 1)")
    B, N, D = x.shape
    if noise.shape != (B, N):
        raise ValueError("noise must be (B, N)")
    keep = int(N * (1 - mask_ratio))
    order = torch.argsort(noise, dim=1)
    kept = torch.gather(x, 1, order[:, :keep, None].expand(B, keep, D))
    mask = torch.cat([torch.zeros(B, keep, dtype=x.dtype), torch.ones(B, N - keep, dtype=x.dtype)], dim=1)
    return {"kept": kept, "mask": mask, "ids_restore": order}
