"""MAE's unpatchify with the token layout (c, p, q): reshape (N, h, w, c, p, q), einsum to (N, c, h, p, w, q).

Adapted from: facebookresearch/mae, models_mae.py (MaskedAutoencoderViT.unpatchify), for channel-first tokens and rectangles
expect: accepted
"""
import torch
import torch.nn.functional as F


def _check(tokens, height, width, patch_height, patch_width):
    if not isinstance(tokens, torch.Tensor) or tokens.dim() != 3:
        raise ValueError("tokens must be (B, N, C * ph * pw)")
    for v in (height, width, patch_height, patch_width):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError("sizes must be positive ints")
    if height % patch_height or width % patch_width:
        raise ValueError("the patch must divide the image")
    if tokens.shape[1] != (height // patch_height) * (width // patch_width):
        raise ValueError("the token count does not match the grid")
    if tokens.shape[2] % (patch_height * patch_width):
        raise ValueError("features are not a multiple of ph * pw")


def unpatchify(tokens, height, width, patch_height, patch_width):
    _check(tokens, height, width, patch_height, patch_width)
    n = tokens.shape[0]
    h, w = height // patch_height, width // patch_width
    c = tokens.shape[2] // (patch_height * patch_width)
    x = tokens.reshape(n, h, w, c, patch_height, patch_width)
    x = torch.einsum("nhwcpq->nchpwq", x)
    return x.reshape(n, c, h * patch_height, w * patch_width)
