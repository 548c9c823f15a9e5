import torch


def random_masking(x: torch.Tensor, mask_ratio: float, noise: torch.Tensor) -> dict:
    if x.dim() != 3:
        raise ValueError("x must be (B, N, D)")
    if not 0 <= mask_ratio < 1:
        raise ValueError("mask_ratio must be in [0, 1)")
    N, L, D = x.shape  # batch, length, dim (MAE's names)
    if noise.shape != (N, L):
        raise ValueError(f"noise must be ({N}, {L})")
    len_keep = int(L * mask_ratio)  # the masked share

    ids_shuffle = torch.argsort(noise, dim=1)  # ascend: small is keep, large is remove
    ids_restore = torch.argsort(ids_shuffle, dim=1)

    ids_keep = ids_shuffle[:, :len_keep]
    x_masked = torch.gather(x, dim=1, index=ids_keep.unsqueeze(-1).repeat(1, 1, D))

    mask = torch.ones([N, L], dtype=x.dtype)
    mask[:, :len_keep] = 0
    mask = torch.gather(mask, dim=1, index=ids_restore)
    return {"kept": x_masked, "mask": mask, "ids_restore": ids_restore}
