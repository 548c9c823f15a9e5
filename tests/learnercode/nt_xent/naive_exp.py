import torch
import torch.nn.functional as F


def nt_xent(z1, z2, temperature):
    if z1.dim() != 2 or z2.dim() != 2:
        raise ValueError("inputs must be 2-D")
    if z1.shape != z2.shape:
        raise ValueError("shapes differ")
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    batch_size = z1.shape[0]
    z = torch.cat([F.normalize(z1, dim=1), F.normalize(z2, dim=1)], dim=0)
    sim = torch.exp(z @ z.T / temperature)
    mask = (~torch.eye(2 * batch_size, dtype=torch.bool)).to(sim.dtype)
    denominator = (sim * mask).sum(dim=1)
    idx = torch.arange(2 * batch_size)
    positives = sim[idx, (idx + batch_size) % (2 * batch_size)]
    return -torch.log(positives / denominator).mean()
