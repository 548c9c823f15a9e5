"""sthalles' SimCLR layout: row i paired with row i + N (two stacked views), not (2i, 2i + 1).

Adapted from: sthalles/SimCLR, simclr.py (info_nce_loss: labels = cat([arange(N)] * 2))
expect: wrong_answer
mistake: pairs_i_plus_n
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
    n = len(embeddings) // 2
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    sim = z @ z.T / temperature
    np.fill_diagonal(sim, -np.inf)
    positives = np.concatenate([np.arange(n) + n, np.arange(n)])
    m = sim.max(axis=1)
    lse = m + np.log(np.exp(sim - m[:, None]).sum(axis=1))
    return float(np.mean(lse - sim[np.arange(2 * n), positives]))
