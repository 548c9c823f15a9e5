"""Trusted reference for `pos_embed`: prepend the shared class token, then add the position table."""
import torch


def add_cls_and_pos_embed(tokens, cls_token, pos_embedding):
    for name, x in (("tokens", tokens), ("cls_token", cls_token), ("pos_embedding", pos_embedding)):
        if not isinstance(x, torch.Tensor) or x.dim() != 3 or not x.is_floating_point():
            raise ValueError(f"{name} must be a 3-D float tensor")
    batch, length, width = tokens.shape
    if tuple(cls_token.shape) != (1, 1, width):
        raise ValueError(f"cls_token has shape {tuple(cls_token.shape)}; expected (1, 1, {width})")
    if tuple(pos_embedding.shape) != (1, length + 1, width):
        raise ValueError(f"pos_embedding has shape {tuple(pos_embedding.shape)}; expected (1, {length + 1}, {width})")
    return torch.cat([cls_token.expand(batch, 1, width), tokens], dim=1) + pos_embedding
