"""Softmax over dim=1 of (B, N, N) scores: the queries, not the keys.

Adapted from: jadore801120/attention-is-all-you-need-pytorch, transformer/Modules.py (ScaledDotProductAttention, dim mistyped)
expect: wrong_answer
mistake: softmax_over_queries
"""
import torch
import torch.nn.functional as F


def self_attention(x, w_q, w_k, w_v):
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    if any(w.dim() != 2 or w.shape[0] != x.shape[-1] for w in (w_q, w_k, w_v)) or w_q.shape[1] != w_k.shape[1]:
        raise ValueError("weights do not fit x")
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    temperature = w_k.shape[1] ** 0.5
    attn = torch.matmul(q / temperature, k.transpose(1, 2))
    attn = F.softmax(attn, dim=1)
    return {"output": torch.matmul(attn, v), "weights": attn}
