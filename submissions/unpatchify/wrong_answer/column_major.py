import torch


def unpatchify(tokens, height, width, patch_height, patch_width):
    """Reads the tokens down each grid column first."""
    if not isinstance(tokens, torch.Tensor) or tokens.ndim != 3:
        raise ValueError("tokens must be (B, N, F)")
    for size in (height, width, patch_height, patch_width):
        if type(size) is not int or size <= 0:
            raise ValueError("sizes must be positive integers")
    if height % patch_height or width % patch_width:
        raise ValueError("the patch size must divide the image size")
    b, n, f = tokens.shape
    gh, gw = height // patch_height, width // patch_width
    c = f // (patch_height * patch_width)
    if n != gh * gw or f % (patch_height * patch_width):
        raise ValueError("tokens do not fit the grid")
    x = tokens.reshape(b, gw, gh, c, patch_height, patch_width)
    return x.permute(0, 3, 2, 4, 1, 5).reshape(b, c, height, width)
