import torch
import torch.nn.functional as F


def nt_xent(z1, z2, temperature):
    if z1.dim() != 2 or z1.shape != z2.shape:
        raise ValueError("z1 and z2 must be 2-D tensors of the same shape")
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    logits = z @ z.T / temperature
    self_mask = torch.eye(2 * n, dtype=torch.bool, device=z.device)
    logits = logits.masked_fill(self_mask, float("-inf"))
    labels = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(logits, labels)
