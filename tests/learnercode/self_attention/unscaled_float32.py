import torch


def self_attention(x, w_q, w_k, w_v):
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    for w in (w_q, w_k, w_v):
        if w.dim() != 2 or w.shape[0] != x.shape[2]:
            raise ValueError("bad weight")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("w_q, w_k widths differ")
    xf = x.float()
    q, k, v = xf @ w_q.float(), xf @ w_k.float(), xf @ w_v.float()
    weights = torch.softmax(q @ k.transpose(-1, -2), dim=-1)
    out = weights @ v
    return {"output": out.to(x.dtype), "weights": weights.to(x.dtype)}
