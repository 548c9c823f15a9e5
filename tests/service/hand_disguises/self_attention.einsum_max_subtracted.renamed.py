import torch


def _validate(tokens, wq, wk, wv):
    if tokens.ndim != 3:
        raise ValueError("x must be 3-D")
    if any(m.ndim != 2 for m in (wq, wk, wv)):
        raise ValueError("weights must be 2-D")
    if not wq.shape[0] == wk.shape[0] == wv.shape[0] == tokens.shape[2]:
        raise ValueError("weight rows must equal the token width D")
    if wq.shape[1] != wk.shape[1]:
        raise ValueError("queries and keys must have the same width")


def self_attention(x, w_q, w_k, w_v):
    _validate(x, w_q, w_k, w_v)
    queries = torch.einsum("bnd,dk->bnk", x, w_q)
    keys = torch.einsum("bnd,dk->bnk", x, w_k)
    values = torch.einsum("bnd,dv->bnv", x, w_v)
    logits = torch.einsum("bik,bjk->bij", queries, keys) * queries.shape[-1] ** -0.5
    # softmax by hand, stable: subtract every row's own maximum first
    centred = logits - logits.amax(dim=-1, keepdim=True)
    ex = centred.exp()
    attn = ex / ex.sum(dim=-1, keepdim=True)
    return {"output": torch.einsum("bij,bjv->biv", attn, values), "weights": attn}
