def _pair(size):
    if isinstance(size, (tuple, list)):
        if len(size) != 2:
            raise ValueError("expected (height, width)")
        return size[0], size[1]
    return size, size


def _check(*values):
    for v in values:
        if type(v) is not int or v <= 0:
            raise ValueError("sizes must be positive ints")


def _costs(n, patch_dim, dim):
    t = n + 1
    return {"num_patches": n, "num_tokens": t, "patch_dim": patch_dim, "embed_macs": n * patch_dim * dim,
            "attention_macs": 2 * t * t * dim, "mlp_macs": 8 * t * dim * dim}


def vit_cost(image_size, patch_size, channels, dim):
    """The common square case first; rectangles take the general path."""
    if isinstance(image_size, int) and isinstance(patch_size, int):
        _check(image_size, patch_size, channels, dim)
        return _costs((image_size // patch_size) ** 2, channels * patch_size ** 2, dim)
    h, w = _pair(image_size)
    ph, pw = _pair(patch_size)
    _check(h, w, ph, pw, channels, dim)
    if h % ph or w % pw:
        raise ValueError("patch does not divide the image")
    return _costs((h // ph) * (w // pw), channels * ph * pw, dim)
