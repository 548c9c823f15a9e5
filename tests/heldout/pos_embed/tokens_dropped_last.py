"""Slices tokens[:, :-1] to make room for the class token, keeping length N instead of N + 1."""
import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if tokens.dim() != 3 or cls_token.dim() != 3 or pos_embedding.dim() != 3:
        raise ValueError("inputs must be 3-D")
    b, n, d = tokens.shape
    if cls_token.shape != (1, 1, d) or pos_embedding.shape != (1, n + 1, d):
        raise ValueError("shapes do not fit")
    x = torch.cat([cls_token.expand(b, -1, -1), tokens[:, :-1]], dim=1)
    return x + pos_embedding[:, :n]
