"""The cosines of the matching rows are the diagonal of the normalised similarity matrix."""
import torch


def simsiam_loss(p1, p2, z1, z2):
    if any(t.ndim != 2 for t in (p1, p2, z1, z2)):
        raise ValueError("every input must be 2-D (N, d)")
    if not (p1.shape == p2.shape == z1.shape == z2.shape):
        raise ValueError("p1, p2, z1 and z2 must have the same shape")

    def unit(x):
        return x / x.norm(dim=1, keepdim=True).clamp_min(1e-12)

    target1, target2 = unit(z1).detach(), unit(z2).detach()
    cos_12 = (unit(p1) @ target2.T).diagonal()
    cos_21 = (unit(p2) @ target1.T).diagonal()
    return -(cos_12.mean() + cos_21.mean()) / 2
