import torch
import torch.nn.functional as F


def patchify(images, patch_height, patch_width):
    """unfold, put the sequence first (as nn.Transformer likes), then reshape to (B, N, F)."""
    if not torch.is_tensor(images) or images.dim() != 4:
        raise ValueError("expected a 4-D tensor")
    if not all(isinstance(p, int) and not isinstance(p, bool) and p > 0 for p in (patch_height, patch_width)):
        raise ValueError("patch sizes must be positive ints")
    b, c, h, w = images.shape
    if h % patch_height or w % patch_width:
        raise ValueError("H and W must be divisible by the patch size")
    kernel = (patch_height, patch_width)
    columns = F.unfold(images, kernel_size=kernel, stride=kernel)  # (B, F, N)
    sequence = columns.permute(2, 0, 1)  # (N, B, F)
    gh, gw = h // patch_height, w // patch_width
    tokens = sequence.reshape(b, gh * gw, c * patch_height * patch_width)
    n = torch.arange(gh * gw)
    return {"tokens": tokens, "coordinates": torch.stack([n // gw, n % gw], dim=1)}
