import torch


def patchify(imgs, ph, pw):
    if not isinstance(imgs, torch.Tensor) or imgs.ndim != 4:
        raise ValueError("images must be (B, C, H, W)")
    for s in (ph, pw):
        if type(s) is not int or s <= 0:
            raise ValueError("patch sizes must be positive integers")
    batch, chans, height, width = imgs.shape
    if height % ph or width % pw:
        raise ValueError("image size must be divisible by the patch size")
    n_rows, n_cols = height // ph, width // pw
    out = imgs.reshape(batch, chans, n_rows, ph, n_cols, pw)
    out = out.permute(0, 2, 4, 1, 3, 5).reshape(batch, n_rows * n_cols, chans * ph * pw)
    r, q = torch.meshgrid(torch.arange(n_rows), torch.arange(n_cols), indexing="ij")
    return {"tokens": out, "coordinates": torch.stack([r.flatten(), q.flatten()], dim=1)}
