"""A jaxtyping-annotated patch embedding: Float[Tensor, "b c h w"] in, Float[Tensor, "b n d"] out, conv then flatten.

Adapted from: NVIDIA/physicsnemo, physicsnemo/models/afno/afno.py (PatchEmbed.forward, annotated with jaxtyping), with the weight and bias given
expect: accepted
"""
from typing import Optional

import torch.nn.functional as F
from jaxtyping import Float
from torch import Tensor


def patch_embed(
    images: Float[Tensor, "b c h w"],
    weight: Float[Tensor, "d c ph pw"],
    bias: Optional[Float[Tensor, "d"]],
) -> Float[Tensor, "b n d"]:
    if images.ndim != 4 or weight.ndim != 4:
        raise ValueError(f"expected images (B, C, H, W) and weight (D, C, ph, pw), got {tuple(images.shape)} "
                         f"and {tuple(weight.shape)}")
    if images.shape[1] != weight.shape[1]:
        raise ValueError(f"images have {images.shape[1]} channels, the weight {weight.shape[1]}")
    patch_size = tuple(weight.shape[2:])
    if images.shape[2] % patch_size[0] or images.shape[3] % patch_size[1]:
        raise ValueError(f"a {patch_size} patch does not tile a {tuple(images.shape[2:])} image")
    if bias is not None and tuple(bias.shape) != (weight.shape[0],):
        raise ValueError(f"bias must be ({weight.shape[0]},), got {tuple(bias.shape)}")
    x: Float[Tensor, "b d gh gw"] = F.conv2d(images, weight, bias, stride=patch_size)
    return x.flatten(2).transpose(1, 2)
