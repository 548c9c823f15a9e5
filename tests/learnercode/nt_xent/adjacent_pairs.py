import torch
import torch.nn.functional as F


def nt_xent(z1, z2, temperature):
    if z1.dim() != 2 or z2.dim() != 2:
        raise ValueError("inputs must be 2-D")
    if z1.shape != z2.shape:
        raise ValueError("z1 and z2 must match")
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    z = torch.cat([z1, z2], dim=0)
    z = z / z.norm(dim=1, keepdim=True).clamp_min(1e-12)
    logits = z @ z.T / temperature
    idx = torch.arange(z.shape[0])
    logits = logits.masked_fill(idx[:, None] == idx[None, :], float("-inf"))
    positives = idx ^ 1
    return F.cross_entropy(logits, positives)
