def vit_cost(image_size, patch_size, channels, dim):
    if isinstance(image_size, int):
        image_size = (image_size, image_size)
    if isinstance(patch_size, int):
        patch_size = (patch_size, patch_size)
    if len(image_size) != 2 or len(patch_size) != 2:
        raise ValueError("sizes are ints or (h, w) pairs")
    H, W = image_size
    ph, pw = patch_size
    if H < 1 or W < 1 or ph < 1 or pw < 1 or channels < 1 or dim < 1:
        raise ValueError("sizes must be positive")
    if H % ph or W % pw:
        raise ValueError("patch does not divide image")
    num_patches = (H // ph) * (W // pw)
    T = num_patches + 1
    patch_dim = channels * ph * pw
    # QK^T: every token against every token
    attention = T * T * dim
    return {"num_patches": num_patches, "num_tokens": T, "patch_dim": patch_dim,
            "embed_macs": num_patches * patch_dim * dim, "attention_macs": attention, "mlp_macs": 8 * T * dim ** 2}
