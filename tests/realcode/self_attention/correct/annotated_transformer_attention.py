"""The Annotated Transformer's attention(query, key, value): scores / sqrt(d_k), softmax(dim=-1).

Adapted from: harvardnlp/annotated-transformer, the_annotated_transformer.py (attention)
expect: accepted
"""
import math

import torch


def attention(query, key, value):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    p_attn = scores.softmax(dim=-1)
    return torch.matmul(p_attn, value), p_attn


def self_attention(x, w_q, w_k, w_v):
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    d = x.size(-1)
    for w in (w_q, w_k, w_v):
        if w.dim() != 2 or w.size(0) != d:
            raise ValueError("a weight does not fit x")
    if w_q.size(1) != w_k.size(1):
        raise ValueError("w_q and w_k differ in width")
    output, weights = attention(x @ w_q, x @ w_k, x @ w_v)
    return {"output": output, "weights": weights}
