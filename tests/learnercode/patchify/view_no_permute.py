import torch


def patchify(images, patch_height, patch_width):
    if images.dim() != 4:
        raise ValueError("expected a (B, C, H, W) batch")
    if patch_height < 1 or patch_width < 1:
        raise ValueError("patch size must be positive")
    B, C, H, W = images.shape
    if H % patch_height != 0 or W % patch_width != 0:
        raise ValueError("image size must be divisible by the patch size")
    gh, gw = H // patch_height, W // patch_width
    # cut the image into a grid of patches and flatten every patch
    patches = images.view(B, C, gh, patch_height, gw, patch_width)
    tokens = patches.reshape(B, gh * gw, C * patch_height * patch_width)
    rows = torch.arange(gh).repeat_interleave(gw)
    cols = torch.arange(gw).repeat(gh)
    return {"tokens": tokens, "coordinates": torch.stack([rows, cols], dim=1)}
