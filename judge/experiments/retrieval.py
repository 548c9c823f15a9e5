"""Held-out retrieval, the score of the contrastive experiments (nt_xent, clip).

Top-1 retrieval: query i finds its partner when its cosine similarity to
candidate i is strictly larger than to every other candidate (a tie counts as
a miss, so a collapsed representation scores 0, not 1/N).
"""
from __future__ import annotations

from typing import Any


def top1(queries: Any, candidates: Any) -> float:
    """The fraction of rows i of `queries` whose most similar row of `candidates` is row i alone."""
    import torch
    import torch.nn.functional as F

    sims = F.normalize(queries, dim=1) @ F.normalize(candidates, dim=1).T
    diagonal = sims.diagonal()
    others = sims.masked_fill(torch.eye(len(sims), dtype=torch.bool), float("-inf"))
    return (diagonal > others.max(dim=1).values).double().mean().item()
