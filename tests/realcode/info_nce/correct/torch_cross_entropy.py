"""A numpy problem solved in torch: the array into a tensor, SimCLR's masked cross-entropy, .item() back out.

Adapted from: sthalles/SimCLR, simclr.py (info_nce_loss: F.normalize, the similarity matrix, the diagonal masked, CrossEntropyLoss), with this problem's (2i, 2i + 1) pairs
expect: accepted
"""
import numpy as np
import torch
import torch.nn.functional as F


def contrastive_loss(embeddings, temperature):
    if not isinstance(embeddings, np.ndarray) or embeddings.ndim != 2:
        raise ValueError("embeddings must be a 2-D array")
    if len(embeddings) < 2 or len(embeddings) % 2:
        raise ValueError("need an even number of rows, at least 2: every row needs its positive")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    features = F.normalize(torch.tensor(embeddings, dtype=torch.float64), dim=1)
    similarity_matrix = features @ features.T / temperature
    n = similarity_matrix.shape[0]
    mask = torch.eye(n, dtype=torch.bool)
    logits = similarity_matrix.masked_fill(mask, float("-inf"))
    labels = torch.arange(n) ^ 1
    return F.cross_entropy(logits, labels).item()
