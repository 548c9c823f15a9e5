import numpy as np


def vit_cost(image_size, patch_size, channels, dim):
    img = np.array(image_size if isinstance(image_size, (tuple, list)) else (image_size, image_size))
    patch = np.array(patch_size if isinstance(patch_size, (tuple, list)) else (patch_size, patch_size))
    if img.shape != (2,) or patch.shape != (2,):
        raise ValueError("sizes must be ints or pairs")
    if (img < 1).any() or (patch < 1).any() or channels < 1 or dim < 1:
        raise ValueError("sizes must be positive")
    if (img % patch).any():
        raise ValueError("patch must divide the image")
    num_patches = np.prod(img // patch)
    num_tokens = num_patches + 1
    patch_dim = channels * np.prod(patch)
    return {"num_patches": num_patches, "num_tokens": num_tokens, "patch_dim": patch_dim,
            "embed_macs": num_patches * patch_dim * dim, "attention_macs": num_tokens ** 2 * dim,
            "mlp_macs": 8 * num_tokens * dim ** 2}
