"""timm's PatchEmbed grid_size / num_patches, plus the class token and per-layer MAC counts.

Adapted from: huggingface/pytorch-image-models, timm/layers/patch_embed.py (PatchEmbed: grid_size = img_size // patch_size, num_patches = grid_size[0] * grid_size[1])
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
    img_size, patch = _pair(image_size, "image_size"), _pair(patch_size, "patch_size")
    _positive(channels, "channels")
    _positive(dim, "dim")
    if img_size[0] % patch[0] or img_size[1] % patch[1]:
        raise ValueError("the patch does not divide the image")
    grid_size = tuple(s // p for s, p in zip(img_size, patch))
    num_patches = grid_size[0] * grid_size[1]
    num_tokens = num_patches + 1
    patch_dim = channels * patch[0] * patch[1]
    return {"num_patches": num_patches, "num_tokens": num_tokens, "patch_dim": patch_dim,
            "embed_macs": num_patches * patch_dim * dim, "attention_macs": 2 * num_tokens ** 2 * dim,
            "mlp_macs": 2 * num_tokens * dim * 4 * dim}
