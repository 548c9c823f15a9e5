"""Trusted reference for `patch_embed`: a strided convolution, computed in float64, as (B, N, D) tokens."""
import torch
import torch.nn.functional as F


def patch_embed(images, weight, bias):
    for name, x in (("images", images), ("weight", weight)):
        if not isinstance(x, torch.Tensor) or x.dim() != 4 or not x.is_floating_point():
            raise ValueError(f"{name} must be a 4-D float tensor")
    _, channels, height, width = images.shape
    dim, weight_channels, ph, pw = weight.shape
    if weight_channels != channels:
        raise ValueError(f"weight has {weight_channels} input channels; images have {channels}")
    if height % ph or width % pw:
        raise ValueError(f"image size {height}x{width} is not divisible by the patch size {ph}x{pw}")
    if bias is not None and (not isinstance(bias, torch.Tensor) or tuple(bias.shape) != (dim,)):
        raise ValueError(f"bias must be None or of shape ({dim},)")
    # float64 accumulation: the expected values are the exact sums, rounded once to the input dtype.
    out = F.conv2d(images.double(), weight.double(), None if bias is None else bias.double(), stride=(ph, pw))
    return out.flatten(2).transpose(1, 2).to(images.dtype)
