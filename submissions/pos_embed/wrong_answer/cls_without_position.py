import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if tokens.dim() != 3 or cls_token.dim() != 3 or pos_embedding.dim() != 3:
        raise ValueError("all inputs must be 3-D")
    b, n, d = tokens.shape
    if cls_token.shape != (1, 1, d) or pos_embedding.shape != (1, n + 1, d):
        raise ValueError("shape mismatch")
    x = tokens + pos_embedding[:, 1:]
    return torch.cat([cls_token.expand(b, -1, -1), x], dim=1)   # mistake: the class token never gets position 0
