"""Known mistakes for `patch_embed`, each a complete solution with one classic error.

Caught by their own checks instead of a value trap: a freshly initialised
`nn.Conv2d` (its random weights match nothing; the gradient check finds no
gradient reaching `weight`, and its hint says why), silent cropping (the
`rejects_*_not_divisible` tests).
"""
import torch
import torch.nn.functional as F


def _conv(images, weight, bias, **options):
    return F.conv2d(images, weight, bias, stride=tuple(weight.shape[2:]), **options)


def channels_first_output(images, weight, bias):
    return _conv(images, weight, bias).flatten(2)


def reshaped_not_transposed(images, weight, bias):
    out = _conv(images, weight, bias)
    b, d, gh, gw = out.shape
    return out.reshape(b, gh * gw, d)


def column_major_grid(images, weight, bias):
    return _conv(images, weight, bias).transpose(2, 3).flatten(2).transpose(1, 2)


def stride_one(images, weight, bias):
    return F.conv2d(images, weight, bias).flatten(2).transpose(1, 2)


def same_padding(images, weight, bias):
    padding = (weight.shape[2] // 2, weight.shape[3] // 2)  # the CNN habit of "same" padding
    return _conv(images, weight, bias, padding=padding).flatten(2).transpose(1, 2)


def _patches(images, ph, pw):
    """(B, N, C*ph*pw) row-major tokens, each flattened in (C, ph, pw) order."""
    return F.unfold(images, (ph, pw), stride=(ph, pw)).transpose(1, 2)


def weight_flattened_hwc(images, weight, bias):
    d, c, ph, pw = weight.shape
    out = _patches(images, ph, pw) @ weight.permute(0, 2, 3, 1).reshape(d, -1).T
    return out if bias is None else out + bias


def patches_flattened_hwc(images, weight, bias):
    d, c, ph, pw = weight.shape
    b, _, h, w = images.shape
    x = images.reshape(b, c, h // ph, ph, w // pw, pw).permute(0, 2, 4, 3, 5, 1).reshape(b, -1, ph * pw * c)
    out = x @ weight.reshape(d, -1).T
    return out if bias is None else out + bias


def bias_ignored(images, weight, bias):
    return _conv(images, weight, None).flatten(2).transpose(1, 2)
