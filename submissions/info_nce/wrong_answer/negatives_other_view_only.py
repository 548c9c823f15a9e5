import numpy as np


def contrastive_loss(embeddings, temperature):
    """Each anchor's denominator holds only the rows of the other view (odd rows for even anchors)."""
    if embeddings.ndim != 2 or len(embeddings) < 2 or len(embeddings) % 2:
        raise ValueError("need an even number (>= 2) of rows")
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    z = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    s = z @ z.T / temperature
    index = np.arange(len(s))
    other_view = (index[:, None] % 2) != (index[None, :] % 2)
    masked = np.where(other_view, s, -np.inf)
    top = masked.max(axis=1, keepdims=True)
    lse = top[:, 0] + np.log(np.exp(masked - top).sum(axis=1))
    return float(np.mean(lse - s[index, index ^ 1]))
