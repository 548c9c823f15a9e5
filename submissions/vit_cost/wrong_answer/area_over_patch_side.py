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


def vit_cost(image_size, patch_size, channels, dim):
    """Number of patches = number of pixels / patch size."""
    h, w = _pair(image_size)
    ph, pw = _pair(patch_size)
    _check(h, w, ph, pw, channels, dim)
    if h % ph or w % pw:
        raise ValueError("patch does not divide the image")
    n = h * w // ph
    t = n + 1
    return {"num_patches": n, "num_tokens": t, "patch_dim": channels * ph * pw,
            "embed_macs": n * channels * ph * pw * dim,
            "attention_macs": 2 * t * t * dim, "mlp_macs": 8 * t * dim * dim}
