def vit_cost(image_size, patch_size, channels, dim):
    if isinstance(image_size, (tuple, list)):
        if len(image_size) != 2:
            raise ValueError("image_size must be a pair")
        H, W = image_size
    else:
        H = W = image_size
    if isinstance(patch_size, (tuple, list)):
        if len(patch_size) != 2:
            raise ValueError("patch_size must be a pair")
        ph, pw = patch_size
    else:
        ph = pw = patch_size
    if min(H, W, ph, pw, channels, dim) <= 0:
        raise ValueError("sizes must be positive")
    if H % ph or W % pw:
        raise ValueError("patch must tile the image")
    num_patches = (W // ph) * (H // pw)
    num_tokens = num_patches
    patch_dim = channels * ph * pw
    return {"num_patches": num_patches, "num_tokens": num_tokens, "patch_dim": patch_dim,
            "embed_macs": num_patches * patch_dim * dim, "attention_macs": 2 * num_tokens ** 2 * dim,
            "mlp_macs": 8 * num_tokens * dim ** 2}
