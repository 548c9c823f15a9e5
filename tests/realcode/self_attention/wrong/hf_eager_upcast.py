"""Hugging Face's eager_attention_forward: softmax upcast to float32, cast back to the query's dtype.

Adapted from: huggingface/transformers, src/transformers/models/vit/modeling_vit.py (eager_attention_forward)
expect: wrong_answer
mistake: softmax_in_float32
"""
import torch
from torch import nn


def self_attention(x, w_q, w_k, w_v):
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    if any(w.dim() != 2 or w.shape[0] != x.shape[-1] for w in (w_q, w_k, w_v)) or w_q.shape[1] != w_k.shape[1]:
        raise ValueError("weights do not fit x")
    query, key, value = x @ w_q, x @ w_k, x @ w_v
    scaling = query.shape[-1] ** -0.5
    attn_weights = torch.matmul(query, key.transpose(-1, -2)) * scaling
    attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
    return {"output": torch.matmul(attn_weights, value), "weights": attn_weights}
