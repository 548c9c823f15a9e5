import torch.nn.functional as F


def simsiam_loss(p1, p2, z1, z2):
    if p1.dim() != 2 or not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("p1, p2, z1, z2 must be 2-D tensors of one shape")

    def D(p, z):
        return -(F.normalize(p, dim=1) * F.normalize(z.detach(), dim=1)).sum(dim=1).mean()

    return D(p1, z1) / 2 + D(p2, z2) / 2
