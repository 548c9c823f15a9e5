import math

import torch
import torch.nn.functional as F

KEYS = ["ln1_weight", "ln1_bias", "qkv_weight", "qkv_bias", "proj_weight", "proj_bias",
        "ln2_weight", "ln2_bias", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"]


def _check(x, params, num_heads):
    if x.dim() != 3:
        raise ValueError("x must be (B, T, D)")
    D = x.shape[-1]
    if num_heads < 1 or D % num_heads != 0:
        raise ValueError("num_heads must divide D")
    for k in KEYS:
        if k not in params:
            raise ValueError(f"missing parameter {k}")
    hidden = params["fc1_weight"].shape[0]
    shapes = {"ln1_weight": (D,), "ln1_bias": (D,), "ln2_weight": (D,), "ln2_bias": (D,),
              "qkv_weight": (3 * D, D), "qkv_bias": (3 * D,), "proj_weight": (D, D), "proj_bias": (D,),
              "fc1_weight": (hidden, D), "fc1_bias": (hidden,), "fc2_weight": (D, hidden), "fc2_bias": (D,)}
    for k, s in shapes.items():
        if tuple(params[k].shape) != s:
            raise ValueError(f"{k} has the wrong shape")


def layer_norm(x, w, b, eps=1e-6):
    mu = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    return (x - mu) / torch.sqrt(var + eps) * w + b


def attention(x, p, num_heads):
    B, T, D = x.shape
    hd = D // num_heads
    qkv = x @ p["qkv_weight"].T + p["qkv_bias"]
    q, k, v = qkv.chunk(3, dim=-1)
    q = q.reshape(B, T, num_heads, hd).transpose(1, 2)
    k = k.reshape(B, T, num_heads, hd).transpose(1, 2)
    v = v.reshape(B, T, num_heads, hd).transpose(1, 2)
    att = (q @ k.transpose(-2, -1)) / math.sqrt(hd)
    att = att.softmax(dim=-1)
    out = (att @ v).transpose(1, 2).reshape(B, T, D)
    return out @ p["proj_weight"].T + p["proj_bias"]


def mlp(x, p):
    h = x @ p["fc1_weight"].T + p["fc1_bias"]
    h = F.gelu(h, approximate="tanh")
    return h @ p["fc2_weight"].T + p["fc2_bias"]


def vit_block(x, params, num_heads):
    _check(x, params, num_heads)
    h = x + attention(layer_norm(x, params["ln1_weight"], params["ln1_bias"]), params, num_heads)
    return h + mlp(layer_norm(h, params["ln2_weight"], params["ln2_bias"]), params)
