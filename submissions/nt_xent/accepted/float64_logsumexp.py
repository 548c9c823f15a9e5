"""Works in float64 with explicit norms, gathers the positives, casts the result back."""
import torch


def nt_xent(z1, z2, temperature):
    if not (z1.ndim == 2 and z2.ndim == 2):
        raise ValueError(f"expected 2-D inputs, got {z1.ndim}-D and {z2.ndim}-D")
    if z1.shape != z2.shape:
        raise ValueError(f"shapes differ: {tuple(z1.shape)} vs {tuple(z2.shape)}")
    if not temperature > 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    n = len(z1)
    z = torch.cat((z1, z2)).to(torch.float64)
    z = z / torch.linalg.vector_norm(z, dim=1, keepdim=True).clamp(min=1e-12)
    sim = (z @ z.T) / temperature
    k = torch.arange(2 * n)
    positive = sim[k, (k + n) % (2 * n)]
    sim = torch.where(k[:, None] == k[None, :], torch.full_like(sim, -torch.inf), sim)
    return (torch.logsumexp(sim, dim=1) - positive).mean().to(z1.dtype)
