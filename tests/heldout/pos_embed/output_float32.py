"""Fills a torch.zeros(...) buffer (float32 by default) slice by slice: float64 inputs lose their dtype."""
import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if tokens.dim() != 3 or cls_token.dim() != 3 or pos_embedding.dim() != 3:
        raise ValueError("inputs must be 3-D")
    b, n, d = tokens.shape
    if cls_token.shape != (1, 1, d) or pos_embedding.shape != (1, n + 1, d):
        raise ValueError("shapes do not fit")
    out = torch.zeros(b, n + 1, d)
    out[:, :1] = cls_token + pos_embedding[:, :1]
    out[:, 1:] = tokens + pos_embedding[:, 1:]
    return out
