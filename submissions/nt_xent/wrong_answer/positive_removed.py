import torch
import torch.nn.functional as F


def nt_xent(z1, z2, temperature):
    if z1.dim() != 2 or z1.shape != z2.shape:
        raise ValueError("z1 and z2 must be 2-D tensors of the same shape")
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.T / temperature
    k = torch.arange(2 * n)
    pos = (k + n) % (2 * n)
    positives = sim[k, pos]
    mask = torch.eye(2 * n, dtype=torch.bool)
    mask[k, pos] = True  # negatives only in the denominator
    return (torch.logsumexp(sim.masked_fill(mask, float("-inf")), dim=1) - positives).mean()
