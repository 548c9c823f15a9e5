import torch


def unpatchify(tokens, height, width, patch_height, patch_width):
    """Paste each patch into place with plain loops: slow but obviously right."""
    if not isinstance(tokens, torch.Tensor) or len(tokens.shape) != 3:
        raise ValueError("tokens must be 3-D")
    for size in (height, width, patch_height, patch_width):
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise ValueError("sizes must be positive integers")
    if height % patch_height or width % patch_width:
        raise ValueError("sizes do not divide")
    batch, count, features = tokens.shape
    rows, cols = height // patch_height, width // patch_width
    if count != rows * cols or features % (patch_height * patch_width):
        raise ValueError("tokens do not match the grid")
    channels = features // (patch_height * patch_width)
    grid = []
    for r in range(rows):
        row = [tokens[:, r * cols + c].reshape(batch, channels, patch_height, patch_width) for c in range(cols)]
        grid.append(torch.cat(row, dim=3))
    return torch.cat(grid, dim=2)
