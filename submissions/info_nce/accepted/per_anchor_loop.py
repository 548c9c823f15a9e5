"""One anchor at a time, in plain Python loops over the rows."""
import math

import numpy as np


def contrastive_loss(embeddings, temperature):
    if not isinstance(embeddings, np.ndarray) or embeddings.ndim != 2:
        raise ValueError("embeddings must be 2-D")
    n = embeddings.shape[0]
    if n < 2 or n % 2 == 1:
        raise ValueError("every row needs a positive partner")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    rows = []
    for row in embeddings.astype(np.float64):
        rows.append(row / max(float(np.sqrt(np.dot(row, row))), 1e-12))
    total = 0.0
    for i in range(n):
        logits = [float(np.dot(rows[i], rows[k])) / temperature for k in range(n) if k != i]
        top = max(logits)
        lse = top + math.log(sum(math.exp(x - top) for x in logits))
        positive = float(np.dot(rows[i], rows[i ^ 1])) / temperature
        total += lse - positive
    return total / n
