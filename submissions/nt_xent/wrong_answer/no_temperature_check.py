import torch
import torch.nn.functional as F


def nt_xent(z1, z2, temperature):
    if z1.dim() != 2 or z1.shape != z2.shape:
        raise ValueError("z1 and z2 must be 2-D tensors of the same shape")
    n = z1.shape[0]
    t = abs(temperature) + 1e-8  # "keep it positive"
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    logits = (z @ z.T / t).masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
    labels = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(logits, labels)
