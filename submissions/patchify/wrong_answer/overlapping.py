import torch
import torch.nn.functional as F


def patchify(images, patch_height, patch_width):
    """unfold does the patch extraction (the stride was left at its default)."""
    if not torch.is_tensor(images) or images.dim() != 4:
        raise ValueError("expected a 4-D tensor")
    if not all(isinstance(p, int) and not isinstance(p, bool) and p > 0 for p in (patch_height, patch_width)):
        raise ValueError("patch sizes must be positive ints")
    _, _, h, w = images.shape
    if h % patch_height != 0 or w % patch_width != 0:
        raise ValueError("H and W must be divisible by the patch size")
    tokens = F.unfold(images, kernel_size=(patch_height, patch_width)).transpose(1, 2)
    gh, gw = h // patch_height, w // patch_width
    n = torch.arange(gh * gw)
    return {"tokens": tokens, "coordinates": torch.stack([n // gw, n % gw], dim=1)}
