"""timm.layers.PatchEmbed itself, run with the given weight and bias through torch.func.functional_call.

Adapted from: huggingface/pytorch-image-models, timm/layers/patch_embed.py (PatchEmbed, flatten=True), its proj conv's parameters swapped for the problem's inputs (copying them into the module would cut their gradients)
expect: accepted
"""
import torch
from torch.func import functional_call
from timm.layers import PatchEmbed


def _check(images, weight, bias):
    if images.dim() != 4 or weight.dim() != 4:
        raise ValueError("images (B, C, H, W) and weight (D, C, ph, pw)")
    if images.shape[1] != weight.shape[1]:
        raise ValueError("channel counts differ")
    if images.shape[2] % weight.shape[2] or images.shape[3] % weight.shape[3]:
        raise ValueError("the kernel must divide the image")
    if bias is not None and tuple(bias.shape) != (weight.shape[0],):
        raise ValueError("bias must be (D,)")


def patch_embed(images, weight, bias):
    _check(images, weight, bias)
    embed_dim, in_chans, patch_height, patch_width = weight.shape
    module = PatchEmbed(img_size=tuple(images.shape[2:]), patch_size=(patch_height, patch_width),
                        in_chans=in_chans, embed_dim=embed_dim, bias=bias is not None)
    parameters = {"proj.weight": weight}
    if bias is not None:
        parameters["proj.bias"] = bias
    return functional_call(module, parameters, (images,))
