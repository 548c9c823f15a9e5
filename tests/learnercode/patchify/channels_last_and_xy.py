import torch


def patchify(images, patch_height, patch_width):
    if images.dim() != 4:
        raise ValueError("images must be 4-D")
    if patch_height < 1 or patch_width < 1:
        raise ValueError("patch sizes must be >= 1")
    B, C, H, W = images.shape
    if H % patch_height or W % patch_width:
        raise ValueError("image not divisible into patches")
    gh, gw = H // patch_height, W // patch_width
    # (B, gh, gw, ph, pw, C) like an image in HWC
    x = images.reshape(B, C, gh, patch_height, gw, patch_width).permute(0, 2, 4, 3, 5, 1)
    tokens = x.reshape(B, gh * gw, patch_height * patch_width * C)
    coords = []
    for r in range(gh):
        for c in range(gw):
            coords.append((c, r))
    return {"tokens": tokens, "coordinates": torch.tensor(coords, dtype=torch.long).reshape(-1, 2)}
