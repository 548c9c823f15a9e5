import torch
import torch.nn.functional as F


def patch_embed(images: torch.Tensor, weight: torch.Tensor, bias) -> torch.Tensor:
    """Patchify with unfold, then one matrix product with the flattened kernel (a linear layer per patch)."""
    if not (torch.is_tensor(images) and images.ndim == 4):
        raise ValueError("images must be (B, C, H, W)")
    if not (torch.is_tensor(weight) and weight.ndim == 4):
        raise ValueError("weight must be (D, C, ph, pw)")
    batch, channels, height, width = images.shape
    dim, in_channels, ph, pw = weight.shape
    if in_channels != channels:
        raise ValueError("channel counts differ")
    if height % ph != 0 or width % pw != 0:
        raise ValueError("H and W must be multiples of the patch size")
    if bias is not None and tuple(bias.shape) != (dim,):
        raise ValueError("bias must be (D,)")
    patches = F.unfold(images, kernel_size=(ph, pw), stride=(ph, pw)).transpose(1, 2)  # (B, N, C*ph*pw)
    tokens = patches @ weight.reshape(dim, -1).T
    if bias is not None:
        tokens = tokens + bias
    return tokens
