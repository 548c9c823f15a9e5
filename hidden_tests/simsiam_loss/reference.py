"""Trusted reference for `simsiam_loss`: symmetric negative cosine with stop-gradient, in float64."""
import torch


def _cosines(p, z):
    def normalise(x):
        return x / x.norm(dim=1, keepdim=True).clamp_min(1e-12)
    return (normalise(p) * normalise(z.detach())).sum(dim=1)


def simsiam_loss(p1, p2, z1, z2):
    tensors = (p1, p2, z1, z2)
    if not all(isinstance(t, torch.Tensor) and t.dim() == 2 for t in tensors):
        raise ValueError("p1, p2, z1 and z2 must be 2-D tensors (N, d)")
    if len({tuple(t.shape) for t in tensors}) != 1:
        raise ValueError(f"p1, p2, z1 and z2 must have one shape, got {[tuple(t.shape) for t in tensors]}")
    dtype = p1.dtype
    p1, p2, z1, z2 = (t.double() for t in tensors)
    loss = -_cosines(p1, z2).mean() / 2 - _cosines(p2, z1).mean() / 2
    return loss.to(dtype)
