import torch


def unpatchify(tokens, height, width, patch_height, patch_width):
    if tokens.dim() != 3:
        raise ValueError("tokens must be (B, N, F)")
    if min(height, width, patch_height, patch_width) < 1:
        raise ValueError("sizes must be positive")
    if height % patch_height or width % patch_width:
        raise ValueError("image not divisible by patch")
    B, N, F = tokens.shape
    if N != (height // patch_height) * (width // patch_width):
        raise ValueError("wrong number of tokens")
    if F % (patch_height * patch_width):
        raise ValueError("features not a multiple of the patch area")
    C = F // (patch_height * patch_width)
    return tokens.reshape(B, C, height, width)
