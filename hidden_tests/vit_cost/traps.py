"""Known mistakes for `vit_cost`, each a complete solution with one classic error.

Each trap computes from sizes normalised as the reference does, then makes its
one mistake. Caught by the `rejects_*` tests instead: letting bool through,
checking divisibility by area only.
"""


def _pairs(image_size, patch_size):
    def pair(v):
        return (v[0], v[1]) if isinstance(v, (tuple, list)) else (v, v)
    return pair(image_size), pair(patch_size)


def _costs(num_patches, num_tokens, patch_dim, dim, attention=None):
    return {"num_patches": num_patches, "num_tokens": num_tokens, "patch_dim": patch_dim,
            "embed_macs": num_patches * patch_dim * dim,
            "attention_macs": 2 * num_tokens ** 2 * dim if attention is None else attention,
            "mlp_macs": 8 * num_tokens * dim ** 2}


def no_class_token(image_size, patch_size, channels, dim):
    (h, w), (ph, pw) = _pairs(image_size, patch_size)
    n = (h // ph) * (w // pw)
    return _costs(n, n, channels * ph * pw, dim)


def area_over_patch_side(image_size, patch_size, channels, dim):
    (h, w), (ph, pw) = _pairs(image_size, patch_size)
    n = h * w // ph
    return _costs(n, n + 1, channels * ph * pw, dim)


def attention_linear(image_size, patch_size, channels, dim):
    (h, w), (ph, pw) = _pairs(image_size, patch_size)
    n = (h // ph) * (w // pw)
    return _costs(n, n + 1, channels * ph * pw, dim, attention=2 * (n + 1) * dim)


def attention_scores_only(image_size, patch_size, channels, dim):
    (h, w), (ph, pw) = _pairs(image_size, patch_size)
    n = (h // ph) * (w // pw)
    return _costs(n, n + 1, channels * ph * pw, dim, attention=(n + 1) ** 2 * dim)


def sides_swapped(image_size, patch_size, channels, dim):
    (h, w), (ph, pw) = _pairs(image_size, patch_size)
    n = (h // pw) * (w // ph)
    return _costs(n, n + 1, channels * ph * pw, dim)


def numpy_integer_counts(image_size, patch_size, channels, dim):
    import numpy as np

    (h, w), (ph, pw) = _pairs(image_size, patch_size)
    n = np.prod(np.array([h // ph, w // pw]))
    return _costs(n, n + 1, channels * ph * pw, dim)


def float_counts(image_size, patch_size, channels, dim):
    (h, w), (ph, pw) = _pairs(image_size, patch_size)
    n = (h / ph) * (w / pw)
    t = n + 1
    return {"num_patches": n, "num_tokens": t, "patch_dim": channels * ph * pw,
            "embed_macs": n * channels * ph * pw * dim, "attention_macs": 2 * t ** 2 * dim,
            "mlp_macs": 8 * t * dim ** 2}


def cost_per_head_12(image_size, patch_size, channels, dim):
    (h, w), (ph, pw) = _pairs(image_size, patch_size)
    n = (h // ph) * (w // pw)
    return _costs(n, n + 1, channels * ph * pw, dim, attention=2 * (n + 1) ** 2 * (dim // 12))


def cost_per_head_64(image_size, patch_size, channels, dim):
    (h, w), (ph, pw) = _pairs(image_size, patch_size)
    n = (h // ph) * (w // pw)
    return _costs(n, n + 1, channels * ph * pw, dim, attention=2 * (n + 1) ** 2 * 64)
