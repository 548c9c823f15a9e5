"""Per-anchor InfoNCE with scipy-style logsumexp over every other row.

Adapted from: sthalles/SimCLR, simclr.py (info_nce_loss), per anchor in numpy with a stable log-sum-exp
expect: accepted
"""
import numpy as np


def _check(embeddings, temperature):
    if not isinstance(embeddings, np.ndarray) or embeddings.ndim != 2:
        raise ValueError("embeddings must be a 2-D array")
    if len(embeddings) < 2 or len(embeddings) % 2:
        raise ValueError("need an even number of rows, at least 2: every row needs its positive")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")


def _logsumexp(v):
    m = v.max()
    return m + np.log(np.exp(v - m).sum())


def contrastive_loss(embeddings, temperature):
    _check(embeddings, temperature)
    x = np.asarray(embeddings, dtype=np.float64)
    norms = np.sqrt((x * x).sum(axis=1, keepdims=True))
    z = x / np.maximum(norms, 1e-8)
    sims = z @ z.T / temperature
    losses = []
    for i in range(len(z)):
        others = np.delete(sims[i], i)
        losses.append(-sims[i, i ^ 1] + _logsumexp(others))
    return float(np.mean(losses))
