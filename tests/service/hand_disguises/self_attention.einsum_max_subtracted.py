import torch


def _check(x, w_q, w_k, w_v):
    if x.ndim != 3:
        raise ValueError("x must be 3-D")
    if any(w.ndim != 2 for w in (w_q, w_k, w_v)):
        raise ValueError("weights must be 2-D")
    if not w_q.shape[0] == w_k.shape[0] == w_v.shape[0] == x.shape[2]:
        raise ValueError("weight rows must equal the token width D")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("queries and keys must have the same width")


def self_attention(x, w_q, w_k, w_v):
    _check(x, w_q, w_k, w_v)
    q = torch.einsum("bnd,dk->bnk", x, w_q)
    k = torch.einsum("bnd,dk->bnk", x, w_k)
    v = torch.einsum("bnd,dv->bnv", x, w_v)
    scores = torch.einsum("bik,bjk->bij", q, k) * q.shape[-1] ** -0.5
    # softmax by hand, stable: subtract every row's own maximum first
    shifted = scores - scores.amax(dim=-1, keepdim=True)
    e = shifted.exp()
    weights = e / e.sum(dim=-1, keepdim=True)
    return {"output": torch.einsum("bij,bjv->biv", weights, v), "weights": weights}
