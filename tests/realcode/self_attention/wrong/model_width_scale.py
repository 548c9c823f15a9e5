"""vit-pytorch's scale taken from the model width (dim ** -0.5) instead of the head width.

Adapted from: lucidrains/vit-pytorch, vit_pytorch/vit.py (Attention: self.scale = dim_head ** -0.5, dim used)
expect: wrong_answer
mistake: scaled_by_model_width
"""
import torch


def self_attention(x, w_q, w_k, w_v):
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    if any(w.dim() != 2 or w.shape[0] != x.shape[-1] for w in (w_q, w_k, w_v)) or w_q.shape[1] != w_k.shape[1]:
        raise ValueError("weights do not fit x")
    scale = x.shape[-1] ** -0.5
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    attn = (q @ k.transpose(-1, -2) * scale).softmax(dim=-1)
    return {"output": attn @ v, "weights": attn}
