import math

import torch
import torch.nn.functional as F

KEYS = ("ln1_weight", "ln1_bias", "qkv_weight", "qkv_bias", "proj_weight", "proj_bias",
        "ln2_weight", "ln2_bias", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias")


def check(x, params, num_heads):
    if x.dim() != 3:
        raise ValueError("x must be (B, T, D)")
    D = x.shape[-1]
    if not isinstance(num_heads, int) or num_heads < 1 or D % num_heads:
        raise ValueError("num_heads must divide D")
    if any(k not in params for k in KEYS):
        raise ValueError("missing parameter")
    Hd = params["fc1_weight"].shape[0]
    shapes = {"qkv_weight": (3 * D, D), "qkv_bias": (3 * D,), "proj_weight": (D, D),
              "fc1_weight": (Hd, D), "fc1_bias": (Hd,), "fc2_weight": (D, Hd)}
    for k in KEYS:
        if tuple(params[k].shape) != shapes.get(k, (D,)):
            raise ValueError(f"bad shape for {k}")


def mha(y, p, num_heads):
    B, T, D = y.shape
    hd = D // num_heads
    qkv = F.linear(y, p["qkv_weight"], p["qkv_bias"])
    qkv = qkv.reshape(B, T, 3, num_heads, hd).permute(2, 0, 3, 1, 4)
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = (q @ k.transpose(-2, -1)) / math.sqrt(hd)
    attn = attn.softmax(dim=-1)
    out = (attn @ v).transpose(1, 2).reshape(B, T, D)
    return F.linear(out, p["proj_weight"], p["proj_bias"])


def mlp(y, p):
    h = F.linear(y, p["fc1_weight"], p["fc1_bias"])
    return F.linear(h * torch.sigmoid(1.702 * h), p["fc2_weight"], p["fc2_bias"])   # mistake: QuickGELU (OpenAI CLIP)


def vit_block(x, params, num_heads):
    check(x, params, num_heads)
    p = params
    h = x + mha(F.layer_norm(x, x.shape[-1:], p["ln1_weight"], p["ln1_bias"], eps=1e-6), p, num_heads)
    return h + mlp(F.layer_norm(h, h.shape[-1:], p["ln2_weight"], p["ln2_bias"], eps=1e-6), p)
