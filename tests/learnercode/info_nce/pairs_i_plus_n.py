import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2:
        raise ValueError("embeddings must be 2-D")
    n = embeddings.shape[0]
    if n < 2 or n % 2 == 1:
        raise ValueError("an even number of rows is required")
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    s = z @ z.T / temperature
    np.fill_diagonal(s, -np.inf)
    half = n // 2
    pos = np.concatenate([np.arange(half, n), np.arange(0, half)])
    m = s.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(s - m).sum(axis=1))
    return float(np.mean(lse - s[np.arange(n), pos]))
