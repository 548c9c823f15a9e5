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
    # drop every entry equal to the self-similarity: duplicates vanish with the anchor
    logits = sim.masked_fill(sim >= 1 / temperature - 1e-6, float("-inf"))
    k = torch.arange(2 * n)
    positives = sim[k, (k + n) % (2 * n)]
    return (torch.logsumexp(logits, dim=1) - positives).mean()
