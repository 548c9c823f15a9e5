"""The table's first N rows added to the patches, then the bare class token prepended.

Adapted from: lucidrains/vit-pytorch, vit_pytorch/vit.py (ViT.forward: x += pos_embedding[:, :n] before the cls concat)
expect: wrong_answer
mistake: positions_before_prepend
"""
import torch


def _check(tokens, cls_token, pos_embedding):
    if tokens.dim() != 3 or cls_token.dim() != 3 or pos_embedding.dim() != 3:
        raise ValueError("tokens (B, N, D), cls_token (1, 1, D), pos_embedding (1, N + 1, D)")
    b, n, d = tokens.shape
    if tuple(cls_token.shape) != (1, 1, d) or tuple(pos_embedding.shape) != (1, n + 1, d):
        raise ValueError("shapes do not fit")


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    _check(tokens, cls_token, pos_embedding)
    b, n, _ = tokens.shape
    x = tokens + pos_embedding[:, :n]
    return torch.cat((cls_token.repeat(b, 1, 1), x), dim=1)
