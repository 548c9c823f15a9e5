"""Trusted reference for `vit_block`: timm's pre-norm ViT Block (qkv bias, no layer scale, no
dropout) on the given nn.Linear-layout parameters, computed in float64 and cast back."""
import math

import torch

KEYS = ("ln1_weight", "ln1_bias", "qkv_weight", "qkv_bias", "proj_weight", "proj_bias",
        "ln2_weight", "ln2_bias", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias")
EPS = 1e-6


def _shapes(width: int, hidden: int) -> dict:
    return {"ln1_weight": (width,), "ln1_bias": (width,), "ln2_weight": (width,), "ln2_bias": (width,),
            "qkv_weight": (3 * width, width), "qkv_bias": (3 * width,),
            "proj_weight": (width, width), "proj_bias": (width,),
            "fc1_weight": (hidden, width), "fc1_bias": (hidden,),
            "fc2_weight": (width, hidden), "fc2_bias": (width,)}


def _check(x, params, num_heads):
    if not isinstance(x, torch.Tensor) or x.dim() != 3 or not x.is_floating_point():
        raise ValueError("x must be a 3-D float tensor (B, T, D)")
    if isinstance(num_heads, bool) or not isinstance(num_heads, int) or num_heads < 1:
        raise ValueError(f"num_heads must be a positive int, got {num_heads!r}")
    width = x.shape[2]
    if width % num_heads:
        raise ValueError(f"D = {width} is not divisible by num_heads = {num_heads}")
    if not isinstance(params, dict):
        raise ValueError("params must be a dict of tensors")
    missing = [k for k in KEYS if k not in params]
    if missing:
        raise ValueError(f"params lacks {', '.join(missing)}")
    if not all(isinstance(params[k], torch.Tensor) for k in KEYS):
        raise ValueError("every parameter must be a tensor")
    fc1 = params["fc1_weight"]
    hidden = fc1.shape[0] if fc1.dim() == 2 else -1
    for key, shape in _shapes(width, hidden).items():
        if tuple(params[key].shape) != shape:
            raise ValueError(f"params[{key!r}] has shape {tuple(params[key].shape)}; expected {shape}")


def _layer_norm(x, weight, bias):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + EPS) * weight + bias


def vit_block(x, params, num_heads):
    _check(x, params, num_heads)
    p = {k: params[k].to(torch.float64) for k in KEYS}
    h64 = x.to(torch.float64)
    batch, tokens, width = h64.shape
    head = width // num_heads

    y = _layer_norm(h64, p["ln1_weight"], p["ln1_bias"])
    qkv = y @ p["qkv_weight"].T + p["qkv_bias"]                              # (B, T, 3D)
    qkv = qkv.reshape(batch, tokens, 3, num_heads, head).permute(2, 0, 3, 1, 4)
    q, k, v = qkv[0], qkv[1], qkv[2]                                        # (B, H, T, hd)
    attn = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(head), dim=-1)
    heads = (attn @ v).transpose(1, 2).reshape(batch, tokens, width)
    h64 = h64 + heads @ p["proj_weight"].T + p["proj_bias"]

    y = _layer_norm(h64, p["ln2_weight"], p["ln2_bias"])
    hidden = y @ p["fc1_weight"].T + p["fc1_bias"]
    hidden = 0.5 * hidden * (1 + torch.erf(hidden / math.sqrt(2)))           # exact GELU
    out = h64 + hidden @ p["fc2_weight"].T + p["fc2_bias"]
    return out.to(x.dtype)
