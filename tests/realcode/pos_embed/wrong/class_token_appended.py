"""The class token concatenated after the patches (a register-style append), the positions then added.

Adapted from: huggingface/pytorch-image-models, timm/models/vision_transformer.py (_pos_embed, with the concat order reversed)
expect: wrong_answer
mistake: cls_appended
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
    x = torch.cat([tokens, cls_token.expand(tokens.shape[0], -1, -1)], dim=1)
    return x + pos_embedding
