"""timm's VisionTransformer._pos_embed (no_embed_class=False): expand the class token, concatenate, add.

Adapted from: huggingface/pytorch-image-models, timm/models/vision_transformer.py (VisionTransformer._pos_embed)
expect: accepted
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
    x = torch.cat([cls_token.expand(tokens.shape[0], -1, -1), tokens], dim=1)
    return x + pos_embedding
