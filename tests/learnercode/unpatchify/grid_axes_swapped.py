import torch


def unpatchify(tokens, height, width, patch_height, patch_width):
    if tokens.dim() != 3:
        raise ValueError("tokens must be 3-D")
    if height < 1 or width < 1 or patch_height < 1 or patch_width < 1:
        raise ValueError("sizes must be >= 1")
    if height % patch_height or width % patch_width:
        raise ValueError("not divisible")
    B, N, F = tokens.shape
    gh, gw = height // patch_height, width // patch_width
    if N != gh * gw or F % (patch_height * patch_width):
        raise ValueError("tokens do not fit the image")
    C = F // (patch_height * patch_width)
    x = tokens.reshape(B, gh, gw, C, patch_height, patch_width)
    x = x.permute(0, 3, 2, 4, 1, 5)
    return x.reshape(B, C, height, width)
