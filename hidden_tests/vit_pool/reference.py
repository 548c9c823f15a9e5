"""Trusted reference for `vit_pool`: the class token, or the mean of the patch tokens (float64 sum)."""
import torch


def vit_pool(x, mode):
    if not isinstance(x, torch.Tensor) or x.dim() != 3:
        raise ValueError("x must be a 3-D tensor (B, 1 + N, D)")
    if not isinstance(mode, str) or mode not in ("cls", "mean"):
        raise ValueError(f"mode must be 'cls' or 'mean', got {mode!r}")
    if mode == "cls":
        return x[:, 0]
    if x.shape[1] < 2:
        raise ValueError("mode 'mean' needs at least one patch token after the class token")
    return x[:, 1:].to(torch.float64).mean(dim=1).to(x.dtype)
