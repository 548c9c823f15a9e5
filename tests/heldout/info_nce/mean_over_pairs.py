"""Sums the per-anchor losses and divides by the number of pairs N, not the 2N anchors."""
import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2 or not temperature > 0:
        raise ValueError("bad input")
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    s = z @ z.T / temperature
    np.fill_diagonal(s, -np.inf)
    top = s.max(axis=1, keepdims=True)
    lse = top[:, 0] + np.log(np.exp(s - top).sum(axis=1))
    idx = np.arange(len(s))
    return float((lse - s[idx, idx ^ 1]).sum() / (len(s) // 2))
