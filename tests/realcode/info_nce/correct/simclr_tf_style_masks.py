"""SimCLR's add_contrastive_loss on one core, for interleaved pairs: a -1e9 self mask, log-softmax, numpy.

Adapted from: google-research/simclr, objective.py (add_contrastive_loss: LARGE_NUM self mask), pairs (2i, 2i + 1)
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


LARGE_NUM = 1e9


def contrastive_loss(embeddings, temperature):
    _check(embeddings, temperature)
    e = embeddings.astype(np.float64)
    z = e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-12)
    logits = z @ z.T / temperature
    n = len(z)
    logits = logits - np.eye(n) * LARGE_NUM
    m = logits.max(axis=1, keepdims=True)
    log_softmax = logits - (m + np.log(np.exp(logits - m).sum(axis=1, keepdims=True)))
    positives = np.arange(n) ^ 1
    return float(-log_softmax[np.arange(n), positives].mean())
