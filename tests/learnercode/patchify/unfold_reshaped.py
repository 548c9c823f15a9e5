import torch
import torch.nn.functional as F


def patchify(images, patch_height, patch_width):
    if images.ndim != 4:
        raise ValueError("images must be 4-D")
    if patch_height <= 0 or patch_width <= 0:
        raise ValueError("bad patch size")
    B, C, H, W = images.shape
    if H % patch_height or W % patch_width:
        raise ValueError("H and W must be multiples of the patch size")
    k = (patch_height, patch_width)
    cols = F.unfold(images, kernel_size=k, stride=k)          # (B, C*ph*pw, L)
    tokens = cols.reshape(B, cols.shape[2], cols.shape[1])   # (B, L, C*ph*pw)
    r, c = torch.meshgrid(torch.arange(H // patch_height), torch.arange(W // patch_width), indexing="ij")
    coords = torch.stack([r.flatten(), c.flatten()], dim=1)
    return {"tokens": tokens, "coordinates": coords}
