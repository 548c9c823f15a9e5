import math

import torch


def self_attention(x, w_q, w_k, w_v):
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    d = x.shape[-1]
    if any(w.dim() != 2 or w.shape[0] != d for w in (w_q, w_k, w_v)) or w_q.shape[1] != w_k.shape[1]:
        raise ValueError("weight shapes do not fit")
    dtype = x.dtype
    q, k, v = x.float() @ w_q.float(), x.float() @ w_k.float(), x.float() @ w_v.float()   # mistake: float32 internals
    weights = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(q.shape[-1]), dim=-1)
    return {"output": (weights @ v).to(dtype), "weights": weights.to(dtype)}
