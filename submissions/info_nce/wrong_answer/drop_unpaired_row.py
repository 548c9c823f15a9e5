import numpy as np


def contrastive_loss(embeddings, temperature):
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    usable = len(embeddings) - len(embeddings) % 2
    embeddings = embeddings[:usable]                      # mistake: the unpaired last row is silently dropped
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    s = z @ z.T / temperature
    np.fill_diagonal(s, -np.inf)
    m = s.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(s - m).sum(axis=1))
    idx = np.arange(len(s))
    return float((lse - s[idx, idx ^ 1]).mean())
