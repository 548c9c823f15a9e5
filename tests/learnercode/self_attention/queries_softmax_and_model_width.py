import torch


def self_attention(x, w_q, w_k, w_v):
    if x.dim() != 3:
        raise ValueError("x must be (B, N, D)")
    B, N, D = x.shape
    for w in (w_q, w_k, w_v):
        if w.dim() != 2 or w.shape[0] != D:
            raise ValueError("weights must be (D, d)")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("d_k mismatch")
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    scores = torch.einsum("bid,bjd->bij", q, k) / D ** 0.5
    weights = scores.softmax(dim=1)
    out = torch.einsum("bij,bjd->bid", weights, v)
    return {"output": out, "weights": weights}
