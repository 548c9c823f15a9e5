import torch
import torch.nn.functional as F


def nt_xent(z1, z2, temperature):
    if z1.dim() != 2 or z2.dim() != 2:
        raise ValueError("inputs must be 2-D")
    if z1.shape != z2.shape:
        raise ValueError("shapes differ")
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    N = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.T / temperature
    sim.fill_diagonal_(float("-inf"))
    targets = torch.arange(N, 2 * N)
    return F.cross_entropy(sim[:N], targets)
