import torch


def random_masking(x, mask_ratio, noise):
    if x.ndim != 3:
        raise ValueError("x must be 3-D")
    if mask_ratio < 0 or mask_ratio >= 1:
        raise ValueError("mask_ratio outside [0, 1)")
    b, n, d = x.shape
    if noise.ndim != 2 or noise.shape[0] != b or noise.shape[1] != n:
        raise ValueError("noise must be (B, N)")
    keep = int(n * (1 - mask_ratio))
    _, order = torch.sort(noise, dim=1)
    rows = torch.arange(b)[:, None]
    kept = x[rows, order[:, :keep]]                    # advanced indexing: (B, keep, D)
    mask = torch.ones(b, n, dtype=x.dtype).scatter(1, order[:, :keep], 0.0)
    # the inverse permutation: restore[b, order[b, i]] = i
    restore = torch.empty_like(order).scatter_(1, order, torch.arange(n).expand(b, n).contiguous())
    return {"kept": kept, "mask": mask, "ids_restore": restore}
