"""Per-operation MAC counts, as a FLOP counter tallies them: QK^T and attn @ V, fc1 and fc2 of a 4x MLP.

Adapted from: facebookresearch/fvcore, fvcore/nn/jit_handles.py (matmul_flop_jit: one MAC per multiply-add), applied to a ViT layer
expect: accepted
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
    qk = t * t * dim        # (t, dim) @ (dim, t)
    av = t * t * dim        # (t, t) @ (t, dim)
    fc1 = t * dim * (4 * dim)
    fc2 = t * (4 * dim) * dim
    return {"num_patches": n, "num_tokens": t, "patch_dim": channels * ph * pw,
            "embed_macs": n * (channels * ph * pw) * dim, "attention_macs": qk + av, "mlp_macs": fc1 + fc2}
