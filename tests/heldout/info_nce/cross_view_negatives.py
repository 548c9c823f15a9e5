"""Two-view code: each anchor of view 1 is contrasted only with view 2's rows (and vice versa)."""
import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2 or not temperature > 0:
        raise ValueError("bad input")
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    a, b = z[0::2], z[1::2]
    logits = a @ b.T / temperature          # (N, N): anchor 2i against the second view of every pair
    n = len(a)

    def ce(x):
        top = x.max(axis=1, keepdims=True)
        lse = top[:, 0] + np.log(np.exp(x - top).sum(axis=1))
        return lse - x[np.arange(n), np.arange(n)]

    return float(np.concatenate([ce(logits), ce(logits.T)]).mean())
