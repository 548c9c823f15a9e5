import torch


def patchify(images, patch_height, patch_width):
    """Plain loops over the grid: slow but obviously right."""
    if not isinstance(images, torch.Tensor) or len(images.shape) != 4:
        raise ValueError("images must be 4-D")
    if not isinstance(patch_height, int) or not isinstance(patch_width, int) \
            or isinstance(patch_height, bool) or isinstance(patch_width, bool):
        raise ValueError("patch sizes must be integers")
    if patch_height < 1 or patch_width < 1:
        raise ValueError("patch sizes must be positive")
    batch, channels, height, width = images.shape
    if height % patch_height or width % patch_width:
        raise ValueError("sizes do not divide")
    tokens, coordinates = [], []
    for r in range(height // patch_height):
        for c in range(width // patch_width):
            patch = images[:, :, r * patch_height:(r + 1) * patch_height, c * patch_width:(c + 1) * patch_width]
            tokens.append(patch.reshape(batch, -1))
            coordinates.append([r, c])
    return {"tokens": torch.stack(tokens, dim=1),
            "coordinates": torch.tensor(coordinates, dtype=torch.int64).reshape(-1, 2)}
