import numpy as np
import torch


def patchify(images, patch_height, patch_width):
    """The reshaping done in numpy, where it is easier to follow, then back to torch."""
    if not isinstance(images, torch.Tensor) or images.dim() != 4:
        raise ValueError("images must be 4-D")
    if type(patch_height) is not int or type(patch_width) is not int or min(patch_height, patch_width) <= 0:
        raise ValueError("patch sizes must be positive integers")
    b, c, h, w = images.shape
    if h % patch_height or w % patch_width:
        raise ValueError("patch size must divide the image size")
    gh, gw = h // patch_height, w // patch_width
    x = images.detach().cpu().numpy()
    x = x.reshape(b, c, gh, patch_height, gw, patch_width).transpose(0, 2, 4, 1, 3, 5)
    tokens = np.ascontiguousarray(x).reshape(b, gh * gw, c * patch_height * patch_width)
    rows, cols = np.divmod(np.arange(gh * gw), gw)
    return {"tokens": torch.from_numpy(tokens), "coordinates": torch.from_numpy(np.stack([rows, cols], axis=1))}
