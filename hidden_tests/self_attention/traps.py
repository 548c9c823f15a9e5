"""Known mistakes for `self_attention`, each a complete solution with one classic error."""
import math

import torch


def _qkv(x, w_q, w_k, w_v):
    return x @ w_q, x @ w_k, x @ w_v


def _attend(scores, v, dim=-1):
    weights = torch.softmax(scores, dim=dim)
    return {"output": weights @ v, "weights": weights}


def softmax_over_queries(x, w_q, w_k, w_v):
    q, k, v = _qkv(x, w_q, w_k, w_v)
    return _attend(q @ k.transpose(1, 2) / math.sqrt(q.shape[-1]), v, dim=1)


def no_scaling(x, w_q, w_k, w_v):
    q, k, v = _qkv(x, w_q, w_k, w_v)
    return _attend(q @ k.transpose(1, 2), v)


def divided_by_d_k(x, w_q, w_k, w_v):
    q, k, v = _qkv(x, w_q, w_k, w_v)
    return _attend(q @ k.transpose(1, 2) / q.shape[-1], v)


def scaled_by_model_width(x, w_q, w_k, w_v):
    q, k, v = _qkv(x, w_q, w_k, w_v)
    return _attend(q @ k.transpose(1, 2) / math.sqrt(x.shape[-1]), v)


def keys_times_queries(x, w_q, w_k, w_v):
    q, k, v = _qkv(x, w_q, w_k, w_v)
    return _attend(k @ q.transpose(1, 2) / math.sqrt(q.shape[-1]), v)


def batch_flattened(x, w_q, w_k, w_v):
    b, n, d = x.shape
    q, k, v = _qkv(x.reshape(b * n, d), w_q, w_k, w_v)
    weights = torch.softmax(q @ k.T / math.sqrt(q.shape[-1]), dim=-1)
    return {"output": (weights @ v).reshape(b, n, -1), "weights": weights}


def naive_exp(x, w_q, w_k, w_v):
    q, k, v = _qkv(x, w_q, w_k, w_v)
    e = torch.exp(q @ k.transpose(1, 2) / math.sqrt(q.shape[-1]))
    weights = e / e.sum(dim=-1, keepdim=True)
    return {"output": weights @ v, "weights": weights}


def positions_added(x, w_q, w_k, w_v):
    n, d = x.shape[1], x.shape[2]
    position = torch.arange(n, dtype=torch.float64)[:, None]
    frequency = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * (-math.log(10000.0) / d))
    table = torch.zeros(n, d, dtype=torch.float64)
    table[:, 0::2] = torch.sin(position * frequency)
    table[:, 1::2] = torch.cos(position * frequency)[:, : d // 2]
    q, k, v = _qkv(x + table.to(x.dtype), w_q, w_k, w_v)
    return _attend(q @ k.transpose(1, 2) / math.sqrt(q.shape[-1]), v)


def softmax_in_float32(x, w_q, w_k, w_v):
    # Hugging Face's eager attention: softmax(..., dtype=torch.float32).to(query.dtype)
    q, k, v = _qkv(x, w_q, w_k, w_v)
    scores = q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])
    weights = torch.softmax(scores, dim=-1, dtype=torch.float32).to(x.dtype)
    return {"output": weights @ v, "weights": weights}


def float32_internals(x, w_q, w_k, w_v):
    q, k, v = _qkv(x.float(), w_q.float(), w_k.float(), w_v.float())
    weights = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(q.shape[-1]), dim=-1)
    return {"output": (weights @ v).to(x.dtype), "weights": weights.to(x.dtype)}
