import torch
import torch.nn.functional as F


def nt_xent(z1, z2, temperature):
    if z1.dim() != 2 or z2.dim() != 2:
        raise ValueError("inputs must be 2-D")
    if z1.shape != z2.shape:
        raise ValueError("shapes differ")
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    n = z1.size(0)
    reps = F.normalize(torch.cat([z1, z2]), dim=-1)
    logits = reps @ reps.t() / temperature
    labels = torch.cat([torch.arange(n) + n, torch.arange(n)])
    return F.cross_entropy(logits, labels, reduction="sum")
