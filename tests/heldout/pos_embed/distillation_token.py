"""DeiT habit: a distillation token (here a copy of the class token) after the class token."""
import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if tokens.dim() != 3 or cls_token.dim() != 3 or pos_embedding.dim() != 3:
        raise ValueError("inputs must be 3-D")
    b, n, d = tokens.shape
    if cls_token.shape != (1, 1, d) or pos_embedding.shape != (1, n + 1, d):
        raise ValueError("shapes do not fit")
    cls = (cls_token + pos_embedding[:, :1]).expand(b, -1, -1)
    return torch.cat([cls, cls, tokens + pos_embedding[:, 1:]], dim=1)
