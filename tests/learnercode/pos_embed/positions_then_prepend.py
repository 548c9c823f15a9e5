import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if tokens.dim() != 3 or cls_token.dim() != 3 or pos_embedding.dim() != 3:
        raise ValueError("all inputs must be 3-D")
    B, N, D = tokens.shape
    if cls_token.shape != (1, 1, D):
        raise ValueError("cls_token must be (1, 1, D)")
    if pos_embedding.shape != (1, N + 1, D):
        raise ValueError("pos_embedding must be (1, N + 1, D)")
    x = tokens + pos_embedding[:, :N]
    cls = cls_token.expand(B, -1, -1)
    return torch.cat([cls, x], dim=1)
