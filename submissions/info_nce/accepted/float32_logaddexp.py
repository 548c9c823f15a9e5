"""Keeps the input's precision (float32 stays float32) and reduces with np.logaddexp."""
import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2:
        raise ValueError("expected (2N, d)")
    two_n = len(embeddings)
    if two_n < 2 or two_n % 2:
        raise ValueError("an odd number of rows leaves a row without its positive")
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    z = embeddings / np.clip(np.sqrt((embeddings ** 2).sum(-1, keepdims=True)), 1e-12, None)
    pairs = z.reshape(two_n // 2, 2, -1)
    positive = (pairs[:, 0] * pairs[:, 1]).sum(-1) / temperature          # one value per pair
    s = np.einsum("id,kd->ik", z, z) / temperature
    s[np.eye(two_n, dtype=bool)] = -np.inf
    lse = np.logaddexp.reduce(s, axis=1)
    return np.mean(lse - np.repeat(positive, 2))
