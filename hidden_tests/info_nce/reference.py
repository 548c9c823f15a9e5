"""Trusted reference for `info_nce`: InfoNCE / NT-Xent over (2i, 2i + 1) pairs, in float64."""
import numpy as np


def contrastive_loss(embeddings, temperature):
    if not isinstance(embeddings, np.ndarray) or embeddings.ndim != 2:
        raise ValueError("embeddings must be a 2-D numpy array (2N, d)")
    rows = embeddings.shape[0]
    if rows < 2 or rows % 2:
        raise ValueError(f"embeddings has {rows} rows; every row needs its positive, so the count must be even and >= 2")
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float, np.floating)) or not temperature > 0:
        raise ValueError(f"temperature must be a number > 0, got {temperature!r}")
    e = embeddings.astype(np.float64)
    z = e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-12)
    s = z @ z.T / float(temperature)
    np.fill_diagonal(s, -np.inf)  # the anchor itself is excluded, by index (never by value)
    top = s.max(axis=1, keepdims=True)
    log_denominator = top[:, 0] + np.log(np.exp(s - top).sum(axis=1))
    index = np.arange(rows)
    return float(np.mean(log_denominator - s[index, index ^ 1]))
