"""vit-pytorch's to_qkv = nn.Linear(dim, inner_dim * 3, bias=False): the qkv bias left out.

Adapted from: lucidrains/vit-pytorch, vit_pytorch/vit.py (Attention)
expect: wrong_answer
mistake: qkv_without_bias
"""
import math

import torch
import torch.nn.functional as F
from torch import nn


KEYS = ("ln1_weight", "ln1_bias", "ln2_weight", "ln2_bias", "qkv_weight", "qkv_bias",
        "proj_weight", "proj_bias", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias")


def _check(x, params, num_heads):
    if not isinstance(x, torch.Tensor) or x.dim() != 3:
        raise ValueError("x must be (B, T, D)")
    dim = x.shape[-1]
    if not isinstance(num_heads, int) or num_heads < 1 or dim % num_heads:
        raise ValueError("num_heads must divide D")
    missing = [k for k in KEYS if k not in params]
    if missing:
        raise ValueError(f"missing parameters {missing}")
    hidden = params["fc1_weight"].shape[0]
    want = {"qkv_weight": (3 * dim, dim), "qkv_bias": (3 * dim,), "proj_weight": (dim, dim), "proj_bias": (dim,),
            "fc1_weight": (hidden, dim), "fc1_bias": (hidden,), "fc2_weight": (dim, hidden), "fc2_bias": (dim,)}
    for k in KEYS:
        if tuple(params[k].shape) != want.get(k, (dim,)):
            raise ValueError(f"{k} has shape {tuple(params[k].shape)}")


def _attention(y, p, num_heads, qkv_bias=True):
    B, T, D = y.shape
    hd = D // num_heads
    qkv = F.linear(y, p["qkv_weight"], p["qkv_bias"] if qkv_bias else None)
    q, k, v = qkv.reshape(B, T, 3, num_heads, hd).permute(2, 0, 3, 1, 4)
    attn = (q @ k.transpose(-2, -1) * hd ** -0.5).softmax(dim=-1)
    return F.linear((attn @ v).transpose(1, 2).reshape(B, T, D), p["proj_weight"], p["proj_bias"])


def vit_block(x, params, num_heads):
    _check(x, params, num_heads)
    p = params
    x = x + _attention(F.layer_norm(x, x.shape[-1:], p["ln1_weight"], p["ln1_bias"], eps=1e-6), p, num_heads,
                       qkv_bias=False)
    y = F.layer_norm(x, x.shape[-1:], p["ln2_weight"], p["ln2_bias"], eps=1e-6)
    return x + F.linear(F.gelu(F.linear(y, p["fc1_weight"], p["fc1_bias"])), p["fc2_weight"], p["fc2_bias"])
