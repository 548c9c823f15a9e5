import torch


def patchify(images, patch_height, patch_width):
    if images.dim() != 4:
        raise ValueError("images must be 4-D")
    if patch_height < 1 or patch_width < 1:
        raise ValueError("patch sizes must be >= 1")
    B, C, H, W = images.shape
    gh, gw = H // patch_height, W // patch_width
    images = images[:, :, :gh * patch_height, :gw * patch_width]   # drop the border that does not fit
    tokens, coords = [], []
    for c in range(gw):
        for r in range(gh):
            patch = images[:, :, r * patch_height:(r + 1) * patch_height, c * patch_width:(c + 1) * patch_width]
            tokens.append(patch.reshape(B, -1))
            coords.append([r, c])
    return {"tokens": torch.stack(tokens, dim=1), "coordinates": torch.tensor(coords, dtype=torch.int64)}
