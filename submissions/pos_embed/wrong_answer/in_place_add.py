import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if tokens.dim() != 3 or cls_token.dim() != 3 or pos_embedding.dim() != 3:
        raise ValueError("all inputs must be 3-D")
    b, n, d = tokens.shape
    if cls_token.shape != (1, 1, d) or pos_embedding.shape != (1, n + 1, d):
        raise ValueError("shape mismatch")
    tokens += pos_embedding[:, 1:]                          # mistake: changes the caller's tensor
    return torch.cat([cls_token.expand(b, -1, -1) + pos_embedding[:, :1], tokens], dim=1)
