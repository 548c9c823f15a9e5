import numpy as np
from scipy.special import logsumexp


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2:
        raise ValueError("embeddings must be 2-D")
    n = len(embeddings)
    if n < 2 or n % 2:
        raise ValueError("need complete pairs")
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    sim = z @ z.T / temperature
    idx = np.arange(n)
    pos = idx ^ 1
    positives = sim[idx, pos]
    # negatives: everything except the anchor and its positive
    mask = np.ones((n, n), dtype=bool)
    mask[idx, idx] = False
    mask[idx, pos] = False
    negatives = np.where(mask, sim, -np.inf)
    loss = -positives + logsumexp(negatives, axis=1)
    return float(loss.mean())
