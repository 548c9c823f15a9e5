import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2 or temperature <= 0:
        raise ValueError("bad input")
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    s = z @ z.T / temperature
    idx = np.arange(len(s))
    exp_s = np.exp(s)                                     # mistake: overflows once s > ~709
    denominator = exp_s.sum(axis=1) - exp_s[idx, idx]
    return float(np.mean(-s[idx, idx ^ 1] + np.log(denominator)))
