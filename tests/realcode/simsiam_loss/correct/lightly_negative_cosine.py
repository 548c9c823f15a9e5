"""lightly's NegativeCosineSimilarity (F.cosine_similarity, eps 1e-8), called twice symmetrically.

Adapted from: lightly-ai/lightly, lightly/loss/negative_cosine_similarity.py
expect: accepted
"""
import torch
import torch.nn.functional as F


class NegativeCosineSimilarity(torch.nn.Module):
    def __init__(self, dim: int = 1, eps: float = 1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x0, x1):
        return -F.cosine_similarity(x0, x1, self.dim, self.eps).mean()


def simsiam_loss(p1, p2, z1, z2):
    shapes = {tuple(t.shape) for t in (p1, p2, z1, z2)}
    if len(shapes) != 1 or p1.dim() != 2:
        raise ValueError(f"expected four (N, d) tensors of one shape, got {shapes}")
    criterion = NegativeCosineSimilarity()
    return 0.5 * (criterion(p1, z2.detach()) + criterion(p2, z1.detach()))
