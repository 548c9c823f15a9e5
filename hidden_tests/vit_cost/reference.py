"""Trusted reference for `vit_cost`: token counts and one layer's MACs, in exact Python ints."""


def _positive_int(value, name):
    if type(value) is not int or value <= 0:  # type(...) is int: a bool is not a size
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return value


def _pair(value, name):
    if isinstance(value, (tuple, list)):
        if len(value) != 2:
            raise ValueError(f"{name} must be an int or a pair (height, width), got {len(value)} items")
        return _positive_int(value[0], f"{name}[0]"), _positive_int(value[1], f"{name}[1]")
    size = _positive_int(value, name)
    return size, size


def vit_cost(image_size, patch_size, channels, dim):
    height, width = _pair(image_size, "image_size")
    ph, pw = _pair(patch_size, "patch_size")
    channels = _positive_int(channels, "channels")
    dim = _positive_int(dim, "dim")
    if height % ph or width % pw:
        raise ValueError(f"a {ph}x{pw} patch does not tile a {height}x{width} image")
    num_patches = (height // ph) * (width // pw)
    num_tokens = num_patches + 1
    patch_dim = channels * ph * pw
    return {"num_patches": num_patches, "num_tokens": num_tokens, "patch_dim": patch_dim,
            "embed_macs": num_patches * patch_dim * dim,
            "attention_macs": 2 * num_tokens ** 2 * dim,
            "mlp_macs": 8 * num_tokens * dim ** 2}
