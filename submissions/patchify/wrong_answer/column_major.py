import torch


def patchify(images, patch_height, patch_width):
    """Walk the grid column by column: x first, then y, as when scanning an image left to right."""
    if not isinstance(images, torch.Tensor) or images.dim() != 4:
        raise ValueError("images must be a 4-D tensor")
    for size in (patch_height, patch_width):
        if type(size) is not int or size <= 0:
            raise ValueError("patch sizes must be positive integers")
    batch, channels, height, width = images.shape
    if height % patch_height or width % patch_width:
        raise ValueError("the image size must be divisible by the patch size")
    tokens, coordinates = [], []
    for c in range(width // patch_width):
        for r in range(height // patch_height):
            patch = images[:, :, r * patch_height:(r + 1) * patch_height, c * patch_width:(c + 1) * patch_width]
            tokens.append(patch.reshape(batch, -1))
            coordinates.append((r, c))
    return {"tokens": torch.stack(tokens, dim=1),
            "coordinates": torch.tensor(coordinates, dtype=torch.int64).reshape(-1, 2)}
