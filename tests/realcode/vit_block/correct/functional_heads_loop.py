"""A functional pre-norm block that attends head by head, as the ViT paper's equations read.

Adapted from: google-research/vision_transformer, vit_jax/models_vit.py (Encoder1DBlock), re-expressed in torch per head
expect: accepted
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


def vit_block(x, params, num_heads):
    _check(x, params, num_heads)
    p = params
    B, T, D = x.shape
    hd = D // num_heads
    y = F.layer_norm(x, (D,), p["ln1_weight"], p["ln1_bias"], eps=1e-6)
    qkv = y @ p["qkv_weight"].T + p["qkv_bias"]
    q, k, v = qkv[..., :D], qkv[..., D:2 * D], qkv[..., 2 * D:]
    heads = []
    for h in range(num_heads):
        s = slice(h * hd, (h + 1) * hd)
        w = torch.softmax(q[..., s] @ k[..., s].transpose(1, 2) / math.sqrt(hd), dim=-1)
        heads.append(w @ v[..., s])
    x = x + torch.cat(heads, dim=-1) @ p["proj_weight"].T + p["proj_bias"]
    y = F.layer_norm(x, (D,), p["ln2_weight"], p["ln2_bias"], eps=1e-6)
    y = F.gelu(y @ p["fc1_weight"].T + p["fc1_bias"])
    return x + y @ p["fc2_weight"].T + p["fc2_bias"]
