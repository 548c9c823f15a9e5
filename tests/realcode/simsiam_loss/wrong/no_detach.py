"""lightly's criterion applied to projections that were never detached (the builder's z.detach() dropped).

Adapted from: lightly-ai/lightly, examples/pytorch/simsiam.py and lightly/loss/negative_cosine_similarity.py
expect: wrong_answer
mistake: check:stop_gradient_on_projections
"""
import torch.nn.functional as F


def simsiam_loss(p1, p2, z1, z2):
    if p1.dim() != 2 or not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("bad shapes")
    return 0.5 * (-F.cosine_similarity(p1, z2, dim=1).mean() - F.cosine_similarity(p2, z1, dim=1).mean())
