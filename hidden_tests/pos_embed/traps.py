"""Known mistakes for `pos_embed`, each a complete solution with one classic error.

The judge runs these on a failing test's inputs; when the submission's output
equals one of them, the message names that mistake. Mistakes that leave the
values right are caught by their own checks: `.detach()`/`.data` on a
parameter (the gradient check), in-place `+=` on `tokens` (the mutation check).
"""
import math

import torch


def _cls(tokens, cls_token):
    return cls_token.expand(tokens.shape[0], 1, tokens.shape[2])


def cls_appended(tokens, cls_token, pos_embedding):
    return torch.cat([tokens, _cls(tokens, cls_token)], dim=1) + pos_embedding


def positions_before_prepend(tokens, cls_token, pos_embedding):
    n = tokens.shape[1]
    return torch.cat([_cls(tokens, cls_token), tokens + pos_embedding[:, :n]], dim=1)


def positions_before_prepend_cls_last(tokens, cls_token, pos_embedding):
    n = tokens.shape[1]
    return torch.cat([_cls(tokens, cls_token) + pos_embedding[:, n:], tokens + pos_embedding[:, :n]], dim=1)


def cls_without_position(tokens, cls_token, pos_embedding):
    return torch.cat([_cls(tokens, cls_token), tokens + pos_embedding[:, 1:]], dim=1)


def batch_mixing(tokens, cls_token, pos_embedding):
    b, n, d = tokens.shape
    mixed = tokens.transpose(0, 1).reshape(b, n, d)
    return torch.cat([_cls(tokens, cls_token), mixed], dim=1) + pos_embedding


def sinusoidal_positions(tokens, cls_token, pos_embedding):
    b, n, d = tokens.shape
    # In float32, as torch.arange and the classic code make it: a table made in float64 differs from the
    # learner's by float32 rounding at large positions, and would go unnamed on the float64 test.
    position = torch.arange(n + 1, dtype=torch.float32)[:, None]
    frequency = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
    table = torch.zeros(n + 1, d, dtype=torch.float32)
    table[:, 0::2] = torch.sin(position * frequency)
    table[:, 1::2] = torch.cos(position * frequency)[:, : d // 2]
    return torch.cat([_cls(tokens, cls_token), tokens], dim=1) + table.to(tokens.dtype)
