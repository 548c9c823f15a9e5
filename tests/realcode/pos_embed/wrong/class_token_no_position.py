"""MAE's patch positions added, the class token's own position (pos_embed[:, :1]) forgotten.

Adapted from: facebookresearch/mae, models_mae.py (forward_encoder: cls_token + pos_embed[:, :1] dropped)
expect: wrong_answer
mistake: cls_without_position
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
    x = tokens + pos_embedding[:, 1:, :]
    return torch.cat((cls_token.expand(x.shape[0], -1, -1), x), dim=1)
