import torch
import torch.nn.functional as F


def unpatchify(tokens, height, width, patch_height, patch_width):
    """F.fold is the inverse of F.unfold when the stride equals the kernel (no overlap)."""
    if not torch.is_tensor(tokens) or tokens.dim() != 3:
        raise ValueError("expected a 3-D tensor")
    if not all(isinstance(s, int) and not isinstance(s, bool) and s > 0
               for s in (height, width, patch_height, patch_width)):
        raise ValueError("sizes must be positive ints")
    if height % patch_height or width % patch_width:
        raise ValueError("no cropping or padding")
    if tokens.shape[1] != (height // patch_height) * (width // patch_width):
        raise ValueError("wrong number of tokens")
    if tokens.shape[2] % (patch_height * patch_width):
        raise ValueError("features are not whole channels")
    kernel = (patch_height, patch_width)
    return F.fold(tokens.transpose(1, 2), output_size=(height, width), kernel_size=kernel, stride=kernel)
