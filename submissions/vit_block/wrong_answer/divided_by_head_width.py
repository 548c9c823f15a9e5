import math

import torch

NAMES = ("ln1_weight", "ln1_bias", "qkv_weight", "qkv_bias", "proj_weight", "proj_bias",
         "ln2_weight", "ln2_bias", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias")


def layer_norm(z, weight, bias, eps=1e-6):
    mean = z.mean(-1, keepdim=True)
    var = z.var(-1, keepdim=True, unbiased=False)
    return (z - mean) / torch.sqrt(var + eps) * weight + bias


def linear(z, weight, bias):
    return z @ weight.t() + bias


def gelu(z):
    return 0.5 * z * (1.0 + torch.erf(z / math.sqrt(2.0)))


def attention(y, p, num_heads):
    d = y.shape[-1]
    hd = d // num_heads
    qkv = linear(y, p["qkv_weight"], p["qkv_bias"])
    q, k, v = qkv[..., :d], qkv[..., d:2 * d], qkv[..., 2 * d:]
    heads = []
    for j in range(num_heads):                       # head j: features j*hd ... (j+1)*hd - 1
        cols = slice(j * hd, (j + 1) * hd)
        scores = q[..., cols] @ k[..., cols].transpose(-1, -2) / hd  # scaled by the head width
        heads.append(torch.softmax(scores, dim=-1) @ v[..., cols])
    return linear(torch.cat(heads, dim=-1), p["proj_weight"], p["proj_bias"])


def vit_block(x, params, num_heads):
    if x.ndim != 3:
        raise ValueError("x must be 3-D")
    if type(num_heads) is not int or num_heads < 1:
        raise ValueError("num_heads must be a positive integer")
    d = x.shape[2]
    if d % num_heads != 0:
        raise ValueError("D must be divisible by num_heads")
    for name in NAMES:
        if name not in params:
            raise ValueError(f"params has no {name}")
    hidden = params["fc1_weight"].shape[0]
    for name in NAMES:
        want = {"qkv_weight": (3 * d, d), "qkv_bias": (3 * d,), "proj_weight": (d, d),
                "fc1_weight": (hidden, d), "fc1_bias": (hidden,), "fc2_weight": (d, hidden)}.get(name, (d,))
        if tuple(params[name].shape) != want:
            raise ValueError(f"{name}: expected shape {want}")
    p = params
    h = x + attention(layer_norm(x, p["ln1_weight"], p["ln1_bias"]), p, num_heads)
    mlp = linear(gelu(linear(layer_norm(h, p["ln2_weight"], p["ln2_bias"]), p["fc1_weight"], p["fc1_bias"])),
                 p["fc2_weight"], p["fc2_bias"])
    return h + mlp
