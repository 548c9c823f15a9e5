import math

import torch


def self_attention(x, w_q, w_k, w_v):
    if len(x.shape) != 3:
        raise ValueError("expected x of shape (B, N, D)")
    width = x.shape[2]
    if len(w_q.shape) != 2 or len(w_k.shape) != 2 or len(w_v.shape) != 2:
        raise ValueError("expected 2-D weight matrices")
    if w_q.shape[0] != width or w_k.shape[0] != width or w_v.shape[0] != width:
        raise ValueError("weight matrices need D rows")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("w_q and w_k widths differ")
    scale = 1.0 / math.sqrt(w_q.shape[1])
    outputs, all_weights = [], []
    for tokens in x:                                   # one sample at a time: (N, D)
        q, k, v = tokens @ w_q, tokens @ w_k, tokens @ w_v
        weights = torch.log_softmax(torch.mm(q, k.t()) * scale, dim=1).exp()
        outputs.append(weights @ v)
        all_weights.append(weights)
    return {"output": torch.stack(outputs), "weights": torch.stack(all_weights)}
