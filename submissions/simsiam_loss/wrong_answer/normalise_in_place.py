import torch


def simsiam_loss(p1, p2, z1, z2):
    if p1.dim() != 2 or not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("p1, p2, z1, z2 must be 2-D tensors of one shape")
    t1, t2 = z1.detach(), z2.detach()
    t1 /= t1.norm(dim=1, keepdim=True).clamp_min(1e-12)  # shares storage with z1
    t2 /= t2.norm(dim=1, keepdim=True).clamp_min(1e-12)

    def D(p, t):
        return -((p / p.norm(dim=1, keepdim=True).clamp_min(1e-12)) * t).sum(dim=1).mean()

    return D(p1, t2) / 2 + D(p2, t1) / 2
