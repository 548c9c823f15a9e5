def _pair(x):
    if isinstance(x, (tuple, list)):
        if len(x) != 2:
            raise ValueError("expected a pair")
        return x[0], x[1]
    return x, x


def vit_cost(image_size, patch_size, channels, dim):
    H, W = _pair(image_size)
    ph, pw = _pair(patch_size)
    for v in (H, W, ph, pw, channels, dim):
        if v < 1:
            raise ValueError("all sizes must be >= 1")
    if H % ph != 0 or W % pw != 0:
        raise ValueError("the patch does not tile the image")
    n = (H // ph) * (W // pw)
    tokens = n
    pd = channels * ph * pw
    return {"num_patches": n, "num_tokens": tokens, "patch_dim": pd, "embed_macs": n * pd * dim,
            "attention_macs": 2 * tokens * tokens * dim, "mlp_macs": 8 * tokens * dim * dim}
