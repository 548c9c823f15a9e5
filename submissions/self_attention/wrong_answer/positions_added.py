import math

import torch


def self_attention(x, w_q, w_k, w_v):
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    d = x.shape[-1]
    if any(w.dim() != 2 or w.shape[0] != d for w in (w_q, w_k, w_v)) or w_q.shape[1] != w_k.shape[1]:
        raise ValueError("weight shapes do not fit")
    n = x.shape[1]
    # mistake: positions belong to the model input, not inside attention
    pos = torch.arange(n, dtype=x.dtype)[:, None]
    freq = torch.exp(torch.arange(0, d, 2, dtype=x.dtype) * (-math.log(10000.0) / d))
    table = torch.zeros(n, d, dtype=x.dtype)
    table[:, 0::2] = torch.sin(pos * freq)
    table[:, 1::2] = torch.cos(pos * freq)[:, : d // 2]
    x = x + table
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    weights = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(q.shape[-1]), dim=-1)
    return {"output": weights @ v, "weights": weights}
