"""Reads the position table backwards (pos_embedding.flip(1)), as a right-to-left indexing slip."""
import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if tokens.dim() != 3 or cls_token.dim() != 3 or pos_embedding.dim() != 3:
        raise ValueError("inputs must be 3-D")
    b, n, d = tokens.shape
    if cls_token.shape != (1, 1, d) or pos_embedding.shape != (1, n + 1, d):
        raise ValueError("shapes do not fit")
    return torch.cat([cls_token.expand(b, -1, -1), tokens], dim=1) + pos_embedding.flip(1)
