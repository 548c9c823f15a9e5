import torch.nn.functional as F


def simsiam_loss(p1, p2, z1, z2):
    """BYOL's 2 - 2 cos for each term."""
    if p1.dim() != 2 or not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("p1, p2, z1, z2 must be 2-D tensors of one shape")

    def d(p, z):
        return (2 - 2 * (F.normalize(p, dim=1) * F.normalize(z.detach(), dim=1)).sum(dim=1)).mean()   # mistake

    return d(p1, z2) / 2 + d(p2, z1) / 2
