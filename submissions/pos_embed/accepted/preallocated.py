"""Fills a fresh output tensor slice by slice (slice assignment keeps autograd)."""
import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if tokens.ndim != 3 or cls_token.ndim != 3 or pos_embedding.ndim != 3:
        raise ValueError("expected 3-D tensors")
    b, n, d = tokens.shape
    if cls_token.shape[0] != 1 or cls_token.shape[1] != 1 or cls_token.shape[2] != d:
        raise ValueError("cls_token must be (1, 1, D)")
    if pos_embedding.shape[0] != 1 or pos_embedding.shape[1] != n + 1 or pos_embedding.shape[2] != d:
        raise ValueError("pos_embedding must be (1, N + 1, D)")
    out = tokens.new_empty(b, n + 1, d)
    out[:, 0] = cls_token[0, 0]
    out[:, 1:] = tokens
    return out + pos_embedding[0]
