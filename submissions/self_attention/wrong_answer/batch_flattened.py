import math

import torch


def self_attention(x, w_q, w_k, w_v):
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    d = x.shape[-1]
    if any(w.dim() != 2 or w.shape[0] != d for w in (w_q, w_k, w_v)) or w_q.shape[1] != w_k.shape[1]:
        raise ValueError("weight shapes do not fit")
    b, n, _ = x.shape
    tokens = x.reshape(b * n, d)   # mistake: one long sequence across the batch
    q, k, v = tokens @ w_q, tokens @ w_k, tokens @ w_v
    weights = torch.softmax(q @ k.T / math.sqrt(q.shape[-1]), dim=-1)
    return {"output": (weights @ v).reshape(b, n, -1), "weights": weights}
