"""The class token and positions written for one sequence, then batched with torch.func.vmap.

Adapted from: huggingface/pytorch-image-models, timm/models/vision_transformer.py (VisionTransformer._pos_embed), per sample as the torch.func tutorial's per-sample functions are, vmapped over the batch
expect: accepted
"""
import torch
from torch.func import vmap


def _check(tokens, cls_token, pos_embedding):
    if tokens.dim() != 3 or cls_token.dim() != 3 or pos_embedding.dim() != 3:
        raise ValueError("tokens (B, N, D), cls_token (1, 1, D), pos_embedding (1, N + 1, D)")
    b, n, d = tokens.shape
    if tuple(cls_token.shape) != (1, 1, d) or tuple(pos_embedding.shape) != (1, n + 1, d):
        raise ValueError("shapes do not fit")


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    _check(tokens, cls_token, pos_embedding)

    def one_sequence(sequence):  # (N, D) -> (N + 1, D)
        return torch.cat([cls_token[0], sequence], dim=0) + pos_embedding[0]

    return vmap(one_sequence)(tokens)
