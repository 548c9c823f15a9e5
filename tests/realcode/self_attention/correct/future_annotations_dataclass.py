"""Attention with its sizes in a frozen @dataclass, under `from __future__ import annotations` (string annotations).

Adapted from: karpathy/nanoGPT, model.py (`@dataclass class GPTConfig` beside the attention module; CausalSelfAttention without the mask) and harvardnlp/annotated-transformer (attention)
expect: accepted
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class AttentionConfig:
    n_embd: int
    d_k: int
    d_v: int

    @classmethod
    def from_weights(cls, x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor,
                     w_v: torch.Tensor) -> AttentionConfig:
        if x.dim() != 3:
            raise ValueError("x must be (B, N, D)")
        for w in (w_q, w_k, w_v):
            if w.dim() != 2 or w.shape[0] != x.shape[-1]:
                raise ValueError("every weight must be (D, d)")
        if w_q.shape[1] != w_k.shape[1]:
            raise ValueError("w_q and w_k must have as many columns")
        return cls(n_embd=x.shape[-1], d_k=w_q.shape[1], d_v=w_v.shape[1])

    @property
    def scale(self) -> float:
        return 1.0 / math.sqrt(self.d_k)


def self_attention(x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor, w_v: torch.Tensor) -> dict[str, torch.Tensor]:
    config = AttentionConfig.from_weights(x, w_q, w_k, w_v)
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    att = (q @ k.transpose(-2, -1)) * config.scale
    att = torch.softmax(att, dim=-1)
    return {"output": att @ v, "weights": att}
