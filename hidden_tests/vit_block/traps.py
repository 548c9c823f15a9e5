"""Known mistakes for `vit_block`, each a complete block with one classic error.

`_block` is a correct pre-norm block whose pieces can be swapped out, so each
trap states only its mistake.
"""
import math

import torch
import torch.nn.functional as F


def _ln(x, p, i):
    return F.layer_norm(x, x.shape[-1:], p[f"ln{i}_weight"], p[f"ln{i}_bias"], eps=1e-6)


def _split(qkv, b, t, h, hd):
    qkv = qkv.reshape(b, t, 3, h, hd).permute(2, 0, 3, 1, 4)
    return qkv[0], qkv[1], qkv[2]


def _mha(x, p, h, split=_split, scale=None, softmax_dim=-1):
    b, t, d = x.shape
    hd = d // h
    q, k, v = split(F.linear(x, p["qkv_weight"], p["qkv_bias"]), b, t, h, hd)
    attn = torch.softmax(q @ k.transpose(-2, -1) * (scale if scale is not None else hd ** -0.5), dim=softmax_dim)
    return F.linear((attn @ v).transpose(1, 2).reshape(b, t, d), p["proj_weight"], p["proj_bias"])


def _mlp(x, p, approximate="none"):
    return F.linear(F.gelu(F.linear(x, p["fc1_weight"], p["fc1_bias"]), approximate=approximate),
                    p["fc2_weight"], p["fc2_bias"])


def post_norm(x, params, num_heads):
    h = _ln(x + _mha(x, params, num_heads), params, 1)
    return _ln(h + _mlp(h, params), params, 2)


def no_attention_residual(x, params, num_heads):
    h = _mha(_ln(x, params, 1), params, num_heads)
    return h + _mlp(_ln(h, params, 2), params)


def no_mlp_residual(x, params, num_heads):
    h = x + _mha(_ln(x, params, 1), params, num_heads)
    return _mlp(_ln(h, params, 2), params)


def _block(x, params, num_heads, **mha):
    h = x + _mha(_ln(x, params, 1), params, num_heads, **mha)
    return h + _mlp(_ln(h, params, 2), params)


def scaled_by_model_width(x, params, num_heads):
    return _block(x, params, num_heads, scale=x.shape[-1] ** -0.5)


def _strided(qkv, b, t, h, hd):
    qkv = qkv.reshape(b, t, 3, hd, h).permute(2, 0, 4, 1, 3)
    return qkv[0], qkv[1], qkv[2]


def strided_heads(x, params, num_heads):
    return _block(x, params, num_heads, split=_strided)


def _per_head(qkv, b, t, h, hd):
    qkv = qkv.reshape(b, t, h, 3, hd).permute(3, 0, 2, 1, 4)
    return qkv[0], qkv[1], qkv[2]


def qkv_split_per_head(x, params, num_heads):
    return _block(x, params, num_heads, split=_per_head)


def _k_first(qkv, b, t, h, hd):
    q, k, v = _split(qkv, b, t, h, hd)
    return k, q, v


def q_and_k_swapped(x, params, num_heads):
    return _block(x, params, num_heads, split=_k_first)


def tanh_gelu(x, params, num_heads):
    h = x + _mha(_ln(x, params, 1), params, num_heads)
    return h + _mlp(_ln(h, params, 2), params, approximate="tanh")


def softmax_over_queries(x, params, num_heads):
    return _block(x, params, num_heads, softmax_dim=-2)


def quick_gelu(x, params, num_heads):
    # OpenAI CLIP's QuickGELU, x * sigmoid(1.702 x), instead of the exact GELU
    h = x + _mha(_ln(x, params, 1), params, num_heads)
    hidden = F.linear(_ln(h, params, 2), params["fc1_weight"], params["fc1_bias"])
    hidden = hidden * torch.sigmoid(1.702 * hidden)
    return h + F.linear(hidden, params["fc2_weight"], params["fc2_bias"])


def qkv_without_bias(x, params, num_heads):
    # timm's default qkv_bias=False (and vit-pytorch's to_qkv bias=False): qkv_bias left out
    return _block(x, {**params, "qkv_bias": torch.zeros_like(params["qkv_bias"])}, num_heads)


def layer_norm_default_eps(x, params, num_heads):
    def ln(y, p, i):
        return F.layer_norm(y, y.shape[-1:], p[f"ln{i}_weight"], p[f"ln{i}_bias"], eps=1e-5)
    b, t, d = x.shape
    h = x + _mha(ln(x, params, 1), params, num_heads)
    return h + _mlp(ln(h, params, 2), params)


def float32_internals(x, params, num_heads):
    return _block(x.float(), {k: v.float() for k, v in params.items()}, num_heads).to(x.dtype)


def divided_by_head_width(x, params, num_heads):
    return _block(x, params, num_heads, scale=1.0 / (x.shape[-1] // num_heads))
