import torch
import torch.nn.functional as F


def nt_xent(z1, z2, temperature):
    if z1.dim() != 2 or z1.shape != z2.shape:
        raise ValueError("z1 and z2 must be 2-D tensors of the same shape")
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    logits = (z @ z.T / temperature).masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
    labels = torch.arange(2 * n) ^ 1  # pairs (0, 1), (2, 3), ...
    return F.cross_entropy(logits, labels)
