"""An estimate that counts attention like a dense layer, linear in the tokens (t * dim^2 for the projections).

Adapted from: google-research/vision_transformer, README.md (model table) as often misread: cost proportional to the number of tokens
expect: wrong_answer
mistake: attention_linear
"""

def _pair(v, name):
    if isinstance(v, bool):
        raise ValueError(f"{name} must be an int or a pair of ints")
    if isinstance(v, int):
        v = (v, v)
    if not isinstance(v, (tuple, list)) or len(v) != 2 or any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in v):
        raise ValueError(f"{name} must be a positive int or a pair of positive ints")
    return tuple(v)


def _positive(v, name):
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise ValueError(f"{name} must be a positive int")


def vit_cost(image_size, patch_size, channels, dim):
    (h, w), (ph, pw) = _pair(image_size, "image_size"), _pair(patch_size, "patch_size")
    _positive(channels, "channels")
    _positive(dim, "dim")
    if h % ph or w % pw:
        raise ValueError("the patch does not divide the image")
    n = (h // ph) * (w // pw)
    t = n + 1
    return {"num_patches": n, "num_tokens": t, "patch_dim": channels * ph * pw,
            "embed_macs": n * channels * ph * pw * dim, "attention_macs": 2 * t * dim,
            "mlp_macs": 8 * t * dim * dim}
