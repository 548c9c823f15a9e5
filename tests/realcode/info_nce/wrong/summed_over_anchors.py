"""The per-anchor losses summed, as reduction="sum" does.

Adapted from: Spijkervet/SimCLR, simclr/modules/nt_xent.py (CrossEntropyLoss(reduction="sum"); the division by N dropped)
expect: wrong_answer
mistake: sum_not_mean
"""
import numpy as np


def _check(embeddings, temperature):
    if not isinstance(embeddings, np.ndarray) or embeddings.ndim != 2:
        raise ValueError("embeddings must be a 2-D array")
    if len(embeddings) < 2 or len(embeddings) % 2:
        raise ValueError("need an even number of rows, at least 2: every row needs its positive")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")


def contrastive_loss(embeddings, temperature):
    _check(embeddings, temperature)
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    sim = z @ z.T / temperature
    n = len(z)
    np.fill_diagonal(sim, -np.inf)
    m = sim.max(axis=1)
    lse = m + np.log(np.exp(sim - m[:, None]).sum(axis=1))
    return float(np.sum(lse - sim[np.arange(n), np.arange(n) ^ 1]))
