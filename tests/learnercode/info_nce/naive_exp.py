import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2:
        raise ValueError("embeddings must be 2-D")
    n = embeddings.shape[0]
    if n < 2 or n % 2:
        raise ValueError("need an even number of rows, at least 2")
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    sim = z @ z.T / temperature
    exp_sim = np.exp(sim)
    np.fill_diagonal(exp_sim, 0.0)
    pos = np.arange(n) ^ 1
    losses = -np.log(exp_sim[np.arange(n), pos] / exp_sim.sum(axis=1))
    return float(losses.mean())
