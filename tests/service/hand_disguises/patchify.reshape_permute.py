import torch


def patchify(images, patch_height, patch_width):
    if not isinstance(images, torch.Tensor) or images.ndim != 4:
        raise ValueError("images must be (B, C, H, W)")
    for size in (patch_height, patch_width):
        if type(size) is not int or size <= 0:
            raise ValueError("patch sizes must be positive integers")
    b, c, h, w = images.shape
    if h % patch_height or w % patch_width:
        raise ValueError("image size must be divisible by the patch size")
    gh, gw = h // patch_height, w // patch_width
    x = images.reshape(b, c, gh, patch_height, gw, patch_width)
    x = x.permute(0, 2, 4, 1, 3, 5).reshape(b, gh * gw, c * patch_height * patch_width)
    rows, cols = torch.meshgrid(torch.arange(gh), torch.arange(gw), indexing="ij")
    return {"tokens": x, "coordinates": torch.stack([rows.flatten(), cols.flatten()], dim=1)}
