import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if tokens.dim() != 3 or cls_token.dim() != 3 or pos_embedding.dim() != 3:
        raise ValueError("expected 3-D tensors")
    B, N, D = tokens.shape
    if cls_token.shape != (1, 1, D) or pos_embedding.shape != (1, N + 1, D):
        raise ValueError("bad shapes")
    x = tokens + pos_embedding[:, :N]
    return torch.cat([x, cls_token.expand(B, 1, D)], dim=1)
