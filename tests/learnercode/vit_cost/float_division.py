def vit_cost(image_size, patch_size, channels, dim):
    H, W = (image_size, image_size) if isinstance(image_size, int) else tuple(image_size)
    ph, pw = (patch_size, patch_size) if isinstance(patch_size, int) else tuple(patch_size)
    if min(H, W, ph, pw, channels, dim) < 1:
        raise ValueError("sizes must be positive")
    if H % ph or W % pw:
        raise ValueError("patch must divide the image")
    num_patches = (H / ph) * (W / pw)
    num_tokens = num_patches + 1
    patch_dim = channels * ph * pw
    return {
        "num_patches": num_patches,
        "num_tokens": num_tokens,
        "patch_dim": patch_dim,
        "embed_macs": num_patches * patch_dim * dim,
        "attention_macs": 2 * num_tokens ** 2 * dim,
        "mlp_macs": 8 * num_tokens * dim ** 2,
    }
