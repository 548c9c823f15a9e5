import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2 or temperature <= 0:
        raise ValueError("bad input")
    s = embeddings @ embeddings.T / temperature           # mistake: raw dot products, rows never normalised
    np.fill_diagonal(s, -np.inf)
    m = s.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(s - m).sum(axis=1))
    idx = np.arange(len(s))
    return float((lse - s[idx, idx ^ 1]).mean())
