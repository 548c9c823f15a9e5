import torch


def unpatchify(tokens, height, width, patch_height, patch_width):
    if tokens.dim() != 3:
        raise ValueError("tokens must be 3-D")
    if min(height, width, patch_height, patch_width) < 1:
        raise ValueError("sizes must be positive")
    if height % patch_height or width % patch_width:
        raise ValueError("patch must divide the image")
    B, N, F = tokens.shape
    C = F // (patch_height * patch_width)
    gh, gw = height // patch_height, width // patch_width
    x = tokens.reshape(B, gw, gh, C, patch_height, patch_width)
    x = x.permute(0, 3, 2, 4, 1, 5)
    return x.reshape(B, C, height, width)
