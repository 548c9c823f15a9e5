import math

import torch


def self_attention(x, w_q, w_k, w_v):
    if x.dim() != 3:
        raise ValueError("x must be (B, N, D)")
    D = x.shape[-1]
    for w in (w_q, w_k, w_v):
        if w.dim() != 2 or w.shape[0] != D:
            raise ValueError("weights must be (D, d)")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("w_q and w_k widths differ")
    q = x @ w_q
    k = x @ w_k
    v = x @ w_v
    scores = q @ k.transpose(-2, -1) / math.sqrt(D)
    weights = torch.softmax(scores, dim=-1)
    return {"output": weights @ v, "weights": weights}
