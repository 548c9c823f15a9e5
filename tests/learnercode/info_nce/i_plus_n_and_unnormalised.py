import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2 or embeddings.shape[0] < 2 or embeddings.shape[0] % 2:
        raise ValueError("embeddings must be (2N, d)")
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    n = embeddings.shape[0] // 2
    sim = embeddings @ embeddings.T / temperature
    sim = sim - np.eye(2 * n) * 1e9
    labels = np.concatenate([np.arange(n, 2 * n), np.arange(n)])
    sim_max = sim.max(axis=1, keepdims=True)
    log_prob = sim - sim_max - np.log(np.exp(sim - sim_max).sum(axis=1, keepdims=True))
    return float(-log_prob[np.arange(2 * n), labels].mean())
