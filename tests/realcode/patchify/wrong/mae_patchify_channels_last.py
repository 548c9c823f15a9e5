"""MAE's patchify: einsum("nchpwq->nhwpqc"), so each token is flattened (p, q, C), channels last.

Adapted from: facebookresearch/mae, models_mae.py (MaskedAutoencoderViT.patchify), rectangular patches
expect: wrong_answer
mistake: channels_last_flatten
"""
import torch
import torch.nn.functional as F


def _check(images, patch_height, patch_width):
    if not isinstance(images, torch.Tensor) or images.dim() != 4:
        raise ValueError("images must be (B, C, H, W)")
    for p in (patch_height, patch_width):
        if isinstance(p, bool) or not isinstance(p, int) or p < 1:
            raise ValueError("patch sizes must be positive ints")
    if images.shape[2] % patch_height or images.shape[3] % patch_width:
        raise ValueError("the image size must be divisible by the patch size")


def _coordinates(gh, gw):
    r, c = torch.meshgrid(torch.arange(gh), torch.arange(gw), indexing="ij")
    return torch.stack([r.reshape(-1), c.reshape(-1)], dim=1)


def patchify(images, patch_height, patch_width):
    _check(images, patch_height, patch_width)
    n, c = images.shape[:2]
    h, w = images.shape[2] // patch_height, images.shape[3] // patch_width
    x = images.reshape(n, c, h, patch_height, w, patch_width)
    x = torch.einsum("nchpwq->nhwpqc", x)
    x = x.reshape(n, h * w, patch_height * patch_width * c)
    return {"tokens": x, "coordinates": _coordinates(h, w)}
