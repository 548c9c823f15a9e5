"""timm's Attention and Mlp as functions on the given weights: head_dim = dim // num_heads, F.scaled_dot_product_attention; num_heads used as given.

Adapted from: huggingface/pytorch-image-models, timm/models/vision_transformer.py (Attention.forward: qkv reshaped to (B, N, 3, num_heads, head_dim).permute(2, 0, 3, 1, 4), q, k, v = qkv.unbind(0), F.scaled_dot_product_attention; Block.forward: x = x + attn(norm1(x)); x = x + mlp(norm2(x))), with timm's `assert dim % num_heads == 0` raised as ValueError as the contract asks and no type check of num_heads (timm has none)
expect: accepted
"""
import torch
import torch.nn.functional as F

KEYS = ("ln1_weight", "ln1_bias", "qkv_weight", "qkv_bias", "proj_weight", "proj_bias",
        "ln2_weight", "ln2_bias", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias")


def _validate(x, params, num_heads):
    if x.dim() != 3:
        raise ValueError(f"expected (B, N, C) tokens, got {tuple(x.shape)}")
    dim = x.shape[-1]
    if num_heads < 1 or dim % num_heads != 0:
        raise ValueError("dim should be divisible by num_heads")
    for key in KEYS:
        if key not in params:
            raise ValueError(f"missing parameter {key}")
    hidden = params["fc1_weight"].shape[0]
    expected = {"qkv_weight": (3 * dim, dim), "qkv_bias": (3 * dim,), "proj_weight": (dim, dim),
                "fc1_weight": (hidden, dim), "fc1_bias": (hidden,), "fc2_weight": (dim, hidden)}
    for key in KEYS:
        if tuple(params[key].shape) != expected.get(key, (dim,)):
            raise ValueError(f"{key} has shape {tuple(params[key].shape)}")


def attention(x, p, num_heads):
    B, N, C = x.shape
    head_dim = C // num_heads
    qkv = F.linear(x, p["qkv_weight"], p["qkv_bias"]).reshape(B, N, 3, num_heads, head_dim).permute(2, 0, 3, 1, 4)
    q, k, v = qkv.unbind(0)
    x = F.scaled_dot_product_attention(q, k, v)
    x = x.transpose(1, 2).reshape(B, N, C)
    return F.linear(x, p["proj_weight"], p["proj_bias"])


def mlp(x, p):
    return F.linear(F.gelu(F.linear(x, p["fc1_weight"], p["fc1_bias"])), p["fc2_weight"], p["fc2_bias"])


def vit_block(x, params, num_heads):
    _validate(x, params, num_heads)
    C = x.shape[-1]
    x = x + attention(F.layer_norm(x, (C,), params["ln1_weight"], params["ln1_bias"], eps=1e-6), params, num_heads)
    return x + mlp(F.layer_norm(x, (C,), params["ln2_weight"], params["ln2_bias"], eps=1e-6), params)
