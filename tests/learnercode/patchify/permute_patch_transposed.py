import torch


def patchify(images, patch_height, patch_width):
    if images.dim() != 4:
        raise ValueError("images must be (B, C, H, W)")
    if patch_height < 1 or patch_width < 1:
        raise ValueError("patch sizes must be positive")
    B, C, H, W = images.shape
    if H % patch_height or W % patch_width:
        raise ValueError("patch does not divide the image")
    gh, gw = H // patch_height, W // patch_width
    x = images.reshape(B, C, gh, patch_height, gw, patch_width)
    x = x.permute(0, 2, 4, 1, 5, 3)
    tokens = x.reshape(B, gh * gw, -1)
    coordinates = torch.tensor([[r, c] for r in range(gh) for c in range(gw)], dtype=torch.int64).reshape(-1, 2)
    return {"tokens": tokens, "coordinates": coordinates}
