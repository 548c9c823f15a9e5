import torch


def unpatchify(tokens, height, width, patch_height, patch_width):
    if not isinstance(tokens, torch.Tensor) or tokens.ndim != 3:
        raise ValueError("tokens must be (B, N, F)")
    for size in (height, width, patch_height, patch_width):
        if type(size) is not int or size <= 0:
            raise ValueError("sizes must be positive integers")
    if height % patch_height or width % patch_width:
        raise ValueError("the patch size must divide the image size")
    b, n, f = tokens.shape
    gh, gw = height // patch_height, width // patch_width
    area = patch_height * patch_width
    if n != gh * gw or f % area:
        raise ValueError("tokens do not fit the grid")
    x = tokens.reshape(b, gh, gw, f // area, patch_height, patch_width)
    return x.permute(0, 3, 1, 4, 2, 5).reshape(b, f // area, height, width)
