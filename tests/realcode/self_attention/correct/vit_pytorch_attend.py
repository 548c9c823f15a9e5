"""vit-pytorch's Attention core: dots = q @ k^T * dim_head ** -0.5, nn.Softmax(dim=-1), then @ v.

Adapted from: lucidrains/vit-pytorch, vit_pytorch/vit.py (Attention.forward), one head, given weights
expect: accepted
"""
import torch
from torch import nn


def self_attention(x, w_q, w_k, w_v):
    if x.dim() != 3:
        raise ValueError("x must be (B, N, D)")
    if any(w.dim() != 2 or w.shape[0] != x.shape[-1] for w in (w_q, w_k, w_v)) or w_q.shape[1] != w_k.shape[1]:
        raise ValueError("weights do not fit x")
    q, k, v = torch.matmul(x, w_q), torch.matmul(x, w_k), torch.matmul(x, w_v)
    scale = w_q.shape[1] ** -0.5
    dots = torch.matmul(q, k.transpose(-1, -2)) * scale
    attn = nn.Softmax(dim=-1)(dots)
    return {"output": torch.matmul(attn, v), "weights": attn}
