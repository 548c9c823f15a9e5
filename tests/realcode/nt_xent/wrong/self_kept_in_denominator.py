"""SimCLR's logits without masking the anchor itself: exp(1 / temperature) stays in every denominator.

Adapted from: sthalles/SimCLR, simclr.py (info_nce_loss, the eye mask dropped)
expect: wrong_answer
mistake: self_in_denominator
"""
import torch
import torch.nn.functional as F


def _check(z1, z2, temperature):
    if z1.dim() != 2 or z1.shape != z2.shape:
        raise ValueError("z1 and z2 must be (N, d) tensors of one shape")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")


def nt_xent(z1, z2, temperature):
    _check(z1, z2, temperature)
    n = z1.shape[0]
    features = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    similarity_matrix = features @ features.T / temperature
    labels = torch.cat([torch.arange(n) + n, torch.arange(n)])
    return F.cross_entropy(similarity_matrix, labels)
