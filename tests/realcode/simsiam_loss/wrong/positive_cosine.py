"""solo-learn's function with the minus sign lost: the mean cosine itself.

Adapted from: vturrisi/solo-learn, solo/losses/simsiam.py
expect: wrong_answer
mistake: wrong_sign
"""
import torch.nn.functional as F


def simsiam_loss(p1, p2, z1, z2):
    if p1.dim() != 2 or not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("bad shapes")
    d1 = F.cosine_similarity(p1, z2.detach(), dim=-1).mean()
    d2 = F.cosine_similarity(p2, z1.detach(), dim=-1).mean()
    return (d1 + d2) / 2
