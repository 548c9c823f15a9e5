"""A dot-product attention from a tutorial that leaves out the 1 / sqrt(d_k) scale.

Adapted from: d2l-ai/d2l-en, chapter_attention-mechanisms-and-transformers/attention-scoring-functions.md (DotProductAttention, scale dropped)
expect: wrong_answer
mistake: no_scaling
"""
import torch


def self_attention(x, w_q, w_k, w_v):
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    if any(w.dim() != 2 or w.shape[0] != x.shape[-1] for w in (w_q, w_k, w_v)) or w_q.shape[1] != w_k.shape[1]:
        raise ValueError("weights do not fit x")
    queries, keys, values = x @ w_q, x @ w_k, x @ w_v
    scores = torch.bmm(queries, keys.transpose(1, 2))
    attention_weights = torch.softmax(scores, dim=-1)
    return {"output": torch.bmm(attention_weights, values), "weights": attention_weights}
