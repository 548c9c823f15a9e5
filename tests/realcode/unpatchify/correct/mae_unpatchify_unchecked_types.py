"""MAE's unpatchify as the repository writes it, sizes used as given (no type checks), the contract's shape errors raised.

Adapted from: facebookresearch/mae, models_mae.py (MaskedAutoencoderViT.unpatchify: h = w = int(x.shape[1] ** .5), reshape to (N, h, w, p, p, c), einsum 'nhwpqc->nchpwq'), for the grid the caller gives, rectangular patches and channel-first tokens ('nhwcpq->nchpwq')
expect: accepted
"""
import torch


def unpatchify(tokens, height, width, patch_height, patch_width):
    if tokens.ndim != 3:
        raise ValueError("tokens must be (N, L, patch_size**2 * C)")
    if min(height, width, patch_height, patch_width) < 1:
        raise ValueError("sizes must be at least 1")
    if height % patch_height or width % patch_width:
        raise ValueError("the patch size must divide the image size")
    h, w = height // patch_height, width // patch_width
    if tokens.shape[1] != h * w:
        raise ValueError(f"{tokens.shape[1]} tokens do not fill a {h}x{w} grid")
    if tokens.shape[2] % (patch_height * patch_width):
        raise ValueError("the token width is not a multiple of the patch area")
    c = tokens.shape[2] // (patch_height * patch_width)
    x = tokens.reshape(shape=(tokens.shape[0], h, w, c, patch_height, patch_width))
    x = torch.einsum("nhwcpq->nchpwq", x)
    return x.reshape(shape=(x.shape[0], c, h * patch_height, w * patch_width))
