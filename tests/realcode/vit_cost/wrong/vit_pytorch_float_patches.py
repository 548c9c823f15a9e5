"""vit-pytorch's (image_height // patch_height) written with / : every count a float.

Adapted from: lucidrains/vit-pytorch, vit_pytorch/vit.py (ViT.__init__: num_patches), with true division
expect: wrong_answer
mistake: float_counts
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
    num_patches = (h / ph) * (w / pw)
    t = num_patches + 1
    patch_dim = channels * ph * pw
    return {"num_patches": num_patches, "num_tokens": t, "patch_dim": patch_dim,
            "embed_macs": num_patches * patch_dim * dim, "attention_macs": 2 * t ** 2 * dim,
            "mlp_macs": 8 * t * dim ** 2}
