import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2 or temperature <= 0:
        raise ValueError("bad input")
    two_n = len(embeddings)
    n = two_n // 2
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    s = z @ z.T / temperature
    np.fill_diagonal(s, -np.inf)
    positive_index = np.concatenate([np.arange(n, two_n), np.arange(n)])   # mistake: SimCLR's (i, i + N) layout
    m = s.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(s - m).sum(axis=1))
    return float((lse - s[np.arange(two_n), positive_index]).mean())
