import torch


def random_masking(x, mask_ratio, noise):
    if len(x.shape) != 3:
        raise ValueError("x must be (B, N, D)")
    if not (0.0 <= mask_ratio < 1.0):
        raise ValueError("mask_ratio must be in [0, 1)")
    batch, length, _ = x.shape
    if tuple(noise.shape) != (batch, length):
        raise ValueError("noise must have one value per token")
    len_keep = int(length * (1 - mask_ratio))
    kept, masks, restores = [], [], []
    for tokens, row in zip(x, noise):
        order = sorted(range(length), key=lambda n: row[n].item())   # smallest noise first
        keep = order[:len_keep]
        kept.append(tokens[torch.tensor(keep, dtype=torch.long)])
        mask = torch.ones(length, dtype=x.dtype)
        mask[keep] = 0
        masks.append(mask)
        restore = [0] * length
        for position, token in enumerate(order):
            restore[token] = position
        restores.append(torch.tensor(restore, dtype=torch.int64))
    return {"kept": torch.stack(kept), "mask": torch.stack(masks), "ids_restore": torch.stack(restores)}
