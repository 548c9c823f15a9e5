"""Hard-negative style: contrasts the positive with the single most similar negative only."""
import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2 or not temperature > 0:
        raise ValueError("bad input")
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    s = z @ z.T / temperature
    idx = np.arange(len(s))
    positive = s[idx, idx ^ 1]
    s[idx, idx] = -np.inf
    s[idx, idx ^ 1] = -np.inf
    hardest = s.max(axis=1) if len(s) > 2 else np.full(len(s), -np.inf)
    return float(np.logaddexp(0.0, hardest - positive).mean())
