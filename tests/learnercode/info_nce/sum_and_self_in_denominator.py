import numpy as np


def contrastive_loss(embeddings, temperature):
    if embeddings.ndim != 2:
        raise ValueError("embeddings must be 2-D")
    n = embeddings.shape[0]
    if n < 2 or n % 2:
        raise ValueError("need an even number of rows")
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    norms = np.linalg.norm(embeddings, axis=1, keepdims=True)
    z = embeddings / np.maximum(norms, 1e-12)
    logits = z @ z.T / temperature
    logits_max = logits.max(axis=1, keepdims=True)
    log_denominator = logits_max[:, 0] + np.log(np.exp(logits - logits_max).sum(axis=1))
    positives = logits[np.arange(n), np.arange(n) ^ 1]
    return float(np.sum(log_denominator - positives))
