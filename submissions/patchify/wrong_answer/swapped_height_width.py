import torch


def patchify(images, patch_height, patch_width):
    """Everything indexed (x, y), width first, as in image libraries."""
    if not isinstance(images, torch.Tensor) or images.dim() != 4:
        raise ValueError("images must be (B, C, H, W)")
    for size in (patch_height, patch_width):
        if type(size) is not int or size <= 0:
            raise ValueError("patch sizes must be positive integers")
    b, c, h, w = images.shape
    if h % patch_height or w % patch_width:
        raise ValueError("image size must be divisible by the patch size")
    nx, ny = w // patch_width, h // patch_height
    x = images.reshape(b, c, ny, patch_height, nx, patch_width)
    x = x.permute(0, 4, 2, 1, 5, 3)  # (B, nx, ny, C, pw, ph): x before y everywhere
    tokens = x.reshape(b, nx * ny, c * patch_width * patch_height)
    coordinates = torch.tensor([[i, j] for i in range(nx) for j in range(ny)], dtype=torch.int64)
    return {"tokens": tokens, "coordinates": coordinates.reshape(nx * ny, 2)}
