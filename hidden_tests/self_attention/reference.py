"""Trusted reference for `self_attention`: scaled dot-product self-attention, computed in float64.

torch.softmax subtracts each row's maximum, so logits of 1e4 stay finite; the
result is cast back to the input's dtype.
"""
import math

import torch


def self_attention(x, w_q, w_k, w_v):
    for name, t in (("x", x), ("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if not isinstance(t, torch.Tensor) or not t.is_floating_point():
            raise ValueError(f"{name} must be a float tensor")
    if x.dim() != 3:
        raise ValueError(f"x must be (B, N, D), got shape {tuple(x.shape)}")
    width = x.shape[2]
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if w.dim() != 2 or w.shape[0] != width:
            raise ValueError(f"{name} must be ({width}, d), got shape {tuple(w.shape)}")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError(f"w_q and w_k must have the same d_k, got {w_q.shape[1]} and {w_k.shape[1]}")
    x64 = x.to(torch.float64)
    q, k, v = x64 @ w_q.to(torch.float64), x64 @ w_k.to(torch.float64), x64 @ w_v.to(torch.float64)
    weights = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(w_q.shape[1]), dim=-1)
    return {"output": (weights @ v).to(x.dtype), "weights": weights.to(x.dtype)}
