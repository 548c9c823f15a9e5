"""InfoNCE over the (2N, 2N) similarities with scipy.special.logsumexp, the anchor's own entry set to -inf.

Adapted from: sthalles/SimCLR, simclr.py (info_nce_loss: similarity matrix, the diagonal discarded, cross-entropy), in numpy with scipy's logsumexp for the denominators
expect: accepted
"""
import numpy as np
from scipy.special import logsumexp


def contrastive_loss(embeddings, temperature):
    if not isinstance(embeddings, np.ndarray) or embeddings.ndim != 2:
        raise ValueError("embeddings must be a 2-D array")
    if len(embeddings) < 2 or len(embeddings) % 2:
        raise ValueError("need an even number of rows, at least 2: every row needs its positive")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    x = embeddings.astype(np.float64)
    z = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
    similarity_matrix = z @ z.T / temperature
    np.fill_diagonal(similarity_matrix, -np.inf)
    rows = np.arange(len(z))
    positives = similarity_matrix[rows, rows ^ 1]
    return float(np.mean(logsumexp(similarity_matrix, axis=1) - positives))
