import torch


def patch_embed(images, weight, bias):
    """Loop over the patches, x then y, and apply the kernel to each one."""
    if images.dim() != 4 or weight.dim() != 4:
        raise ValueError("images and weight must be 4-D")
    b, c, h, w = images.shape
    d, wc, ph, pw = weight.shape
    if wc != c:
        raise ValueError("channel mismatch")
    if h % ph or w % pw:
        raise ValueError("image not divisible by patch size")
    if bias is not None and bias.shape != (d,):
        raise ValueError("bad bias")
    kernel = weight.reshape(d, -1)
    tokens = []
    for x in range(w // pw):
        for y in range(h // ph):
            patch = images[:, :, y * ph:(y + 1) * ph, x * pw:(x + 1) * pw].reshape(b, -1)
            token = patch @ kernel.T
            tokens.append(token if bias is None else token + bias)
    return torch.stack(tokens, dim=1)
