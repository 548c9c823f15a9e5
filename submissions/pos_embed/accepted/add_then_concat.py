"""Adds the positions to each part separately, then concatenates."""
import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if len(tokens.shape) != 3:
        raise ValueError("tokens must be (B, N, D)")
    batch, length, width = tokens.shape
    if tuple(cls_token.shape) != (1, 1, width):
        raise ValueError("cls_token must be (1, 1, D)")
    if tuple(pos_embedding.shape) != (1, length + 1, width):
        raise ValueError("pos_embedding must be (1, N + 1, D)")
    head = (cls_token + pos_embedding[:, :1]).repeat(batch, 1, 1)
    body = tokens + pos_embedding[:, 1:]
    return torch.cat((head, body), dim=1)
