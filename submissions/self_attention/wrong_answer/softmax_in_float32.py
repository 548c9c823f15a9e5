import math

import torch


def self_attention(x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor, w_v: torch.Tensor) -> dict:
    if x.dim() != 3:
        raise ValueError(f"x must be (B, N, D), got {tuple(x.shape)}")
    d = x.shape[-1]
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if w.dim() != 2 or w.shape[0] != d:
            raise ValueError(f"{name} must be ({d}, d), got {tuple(w.shape)}")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("w_q and w_k must have the same number of columns")
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    weights = torch.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)   # mistake: the float32 upcast of HF eager attention
    return {"output": weights @ v, "weights": weights}
