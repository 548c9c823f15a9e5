import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2 or temperature <= 0:
        raise ValueError("bad input")
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    cos = z @ z.T
    s = cos / temperature
    positive = s[np.arange(len(s)), np.arange(len(s)) ^ 1]
    s = np.where(np.isclose(cos, 1.0), -np.inf, s)       # mistake: "self" found by value (cosine == 1)
    m = s.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(s - m).sum(axis=1))
    return float((lse - positive).mean())
