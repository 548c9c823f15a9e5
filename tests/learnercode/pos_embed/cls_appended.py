import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    if tokens.ndim != 3 or cls_token.ndim != 3 or pos_embedding.ndim != 3:
        raise ValueError("inputs must be 3-D")
    B, N, D = tokens.shape
    if tuple(cls_token.shape) != (1, 1, D) or tuple(pos_embedding.shape) != (1, N + 1, D):
        raise ValueError("shape mismatch")
    cls_tokens = cls_token.repeat(B, 1, 1)
    x = torch.cat((tokens, cls_tokens), dim=1)
    return x + pos_embedding
