import torch
import torch.nn.functional as F


def nt_xent(z1, z2, temperature):
    if z1.dim() != 2 or z2.dim() != 2:
        raise ValueError("inputs must be 2-D")
    if z1.shape != z2.shape:
        raise ValueError("shapes differ")
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    n = z1.shape[0]
    z = torch.cat([z1, z2], dim=0)
    sim = torch.matmul(z, z.T) / temperature
    mask = ~torch.eye(2 * n, dtype=torch.bool)
    logits = sim[mask].reshape(2 * n, -1)
    labels = (torch.arange(2 * n) + n) % (2 * n - 1)
    return F.cross_entropy(logits, labels)
