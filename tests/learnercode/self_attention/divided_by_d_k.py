import torch
import torch.nn.functional as F


def self_attention(x, w_q, w_k, w_v):
    if x.ndim != 3:
        raise ValueError("x must be 3-D")
    for w in (w_q, w_k, w_v):
        if w.ndim != 2 or w.shape[0] != x.shape[2]:
            raise ValueError("bad weight shape")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("q and k must have the same width")
    Q, K, V = x @ w_q, x @ w_k, x @ w_v
    d_k = Q.size(-1)
    attn = F.softmax(torch.bmm(Q, K.transpose(1, 2)) / d_k, dim=-1)
    return {"output": torch.bmm(attn, V), "weights": attn}
