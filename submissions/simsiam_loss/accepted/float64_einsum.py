"""Computes in float64 with explicit norms and einsum, then casts back."""
import torch


def _unit(x):
    return x / torch.linalg.vector_norm(x, dim=1, keepdim=True).clamp(min=1e-12)


def simsiam_loss(p1, p2, z1, z2):
    shapes = {tuple(t.shape) for t in (p1, p2, z1, z2)}
    if len(shapes) != 1 or len(next(iter(shapes))) != 2:
        raise ValueError(f"expected four (N, d) tensors of one shape, got {sorted(shapes)}")
    dtype = p1.dtype
    p1, p2 = p1.double(), p2.double()
    t1, t2 = z1.detach().double(), z2.detach().double()
    cos_12 = torch.einsum("nd,nd->n", _unit(p1), _unit(t2))
    cos_21 = torch.einsum("nd,nd->n", _unit(p2), _unit(t1))
    return (-0.5 * cos_12.mean() - 0.5 * cos_21.mean()).to(dtype)
