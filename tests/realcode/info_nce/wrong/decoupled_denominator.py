"""The decoupled contrastive loss: the positive taken out of the denominator.

Adapted from: raminnakhli/Decoupled-Contrastive-Learning, loss/dcl.py (DCL: positives removed from the negatives)
expect: wrong_answer
mistake: positive_not_in_denominator
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
    pos = np.arange(n) ^ 1
    mask = ~np.eye(n, dtype=bool)
    mask[np.arange(n), pos] = False
    neg = np.where(mask, sim, -np.inf)
    m = neg.max(axis=1)
    lse = m + np.log(np.exp(neg - m[:, None]).sum(axis=1))
    return float(np.mean(lse - sim[np.arange(n), pos]))
