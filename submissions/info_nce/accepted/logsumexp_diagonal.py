import numpy as np


def contrastive_loss(embeddings: np.ndarray, temperature: float) -> float:
    if embeddings.ndim != 2 or embeddings.shape[0] < 2 or embeddings.shape[0] % 2:
        raise ValueError("need a 2-D array with an even number (>= 2) of rows")
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    norms = np.linalg.norm(embeddings, axis=1, keepdims=True)
    z = embeddings / np.maximum(norms, 1e-12)
    s = z @ z.T / temperature
    np.fill_diagonal(s, -np.inf)
    m = s.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(s - m).sum(axis=1))
    idx = np.arange(len(s))
    return float((lse - s[idx, idx ^ 1]).mean())
