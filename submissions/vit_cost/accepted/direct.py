def _as_pair(size, name):
    if isinstance(size, (tuple, list)):
        if len(size) != 2:
            raise ValueError(f"{name} must have two items")
        h, w = size
    else:
        h = w = size
    for v in (h, w):
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ValueError(f"{name} must hold positive ints")
    return h, w


def vit_cost(image_size, patch_size, channels, dim):
    """Grid, tokens and MACs, straight from the definitions."""
    h, w = _as_pair(image_size, "image_size")
    ph, pw = _as_pair(patch_size, "patch_size")
    for v in (channels, dim):
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ValueError("channels and dim must be positive ints")
    if h % ph or w % pw:
        raise ValueError("the patch must tile the image")
    n = (h // ph) * (w // pw)
    t = n + 1
    patch_dim = channels * ph * pw
    return {
        "num_patches": n,
        "num_tokens": t,
        "patch_dim": patch_dim,
        "embed_macs": n * patch_dim * dim,
        "attention_macs": 2 * t * t * dim,  # Q K^T and softmax(.) V, all heads
        "mlp_macs": 2 * t * dim * (4 * dim),  # D -> 4D and 4D -> D
    }
