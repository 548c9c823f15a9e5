"""MAE's unpatchify, which checks itself with torch.testing.assert_close: patchifying its own result must give the tokens back.

Adapted from: facebookresearch/mae, models_mae.py (MaskedAutoencoderViT.patchify / unpatchify, channel-first), with the round-trip check its users write using pytorch/pytorch's torch/testing/_comparison.py (assert_close)
expect: accepted
"""
import torch


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


def patchify(imgs, p, q):
    n, c, hh, ww = imgs.shape
    h, w = hh // p, ww // q
    x = imgs.reshape(n, c, h, p, w, q)
    x = torch.einsum("nchpwq->nhwcpq", x)
    return x.reshape(n, h * w, c * p * q)


def unpatchify(tokens, height, width, patch_height, patch_width):
    _check(tokens, height, width, patch_height, patch_width)
    n = tokens.shape[0]
    h, w = height // patch_height, width // patch_width
    c = tokens.shape[2] // (patch_height * patch_width)
    x = tokens.reshape(n, h, w, c, patch_height, patch_width)
    x = torch.einsum("nhwcpq->nchpwq", x)
    imgs = x.reshape(n, c, height, width)
    # Pure data movement: the round trip must be exact, NaN and inf included.
    torch.testing.assert_close(patchify(imgs, patch_height, patch_width), tokens, rtol=0, atol=0, equal_nan=True)
    return imgs
