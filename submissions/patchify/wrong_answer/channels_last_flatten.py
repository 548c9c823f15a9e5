import torch


def patchify(images, patch_height, patch_width):
    """Patches as little (ph, pw, C) images, the way PIL and OpenCV store pixels."""
    if not isinstance(images, torch.Tensor) or images.ndim != 4:
        raise ValueError("images must be (B, C, H, W)")
    if not all(type(p) is int and p > 0 for p in (patch_height, patch_width)):
        raise ValueError("patch sizes must be positive integers")
    b, c, h, w = images.shape
    if h % patch_height or w % patch_width:
        raise ValueError("image size must be divisible by the patch size")
    gh, gw = h // patch_height, w // patch_width
    x = images.reshape(b, c, gh, patch_height, gw, patch_width)
    x = x.permute(0, 2, 4, 3, 5, 1)  # (B, gh, gw, ph, pw, C)
    tokens = x.reshape(b, gh * gw, patch_height * patch_width * c)
    rows, cols = torch.meshgrid(torch.arange(gh), torch.arange(gw), indexing="ij")
    return {"tokens": tokens, "coordinates": torch.stack([rows.flatten(), cols.flatten()], dim=1)}
