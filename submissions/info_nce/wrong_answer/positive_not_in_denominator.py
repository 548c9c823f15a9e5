import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2 or temperature <= 0:
        raise ValueError("bad input")
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    s = z @ z.T / temperature
    idx = np.arange(len(s))
    positive = s[idx, idx ^ 1].copy()
    negatives = s.copy()
    negatives[idx, idx] = -np.inf
    negatives[idx, idx ^ 1] = -np.inf                    # mistake: the positive is dropped from the denominator
    m = negatives.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(negatives - m).sum(axis=1))
    return float((lse - positive).mean())
