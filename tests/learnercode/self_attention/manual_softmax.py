import math

import torch


def self_attention(x, w_q, w_k, w_v):
    if x.dim() != 3:
        raise ValueError("x must be (B, N, D)")
    for w in (w_q, w_k, w_v):
        if w.dim() != 2 or w.shape[0] != x.shape[-1]:
            raise ValueError("weights must be (D, d)")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("d_k mismatch")
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    scores = q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])
    e = torch.exp(scores)
    weights = e / e.sum(dim=-1, keepdim=True)
    return {"output": weights @ v, "weights": weights}
