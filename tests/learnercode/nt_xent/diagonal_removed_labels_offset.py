import torch
import torch.nn.functional as F


def nt_xent(z1, z2, temperature):
    if z1.dim() != 2 or z2.dim() != 2:
        raise ValueError("z1 and z2 must be 2-D")
    if z1.shape != z2.shape:
        raise ValueError("z1 and z2 must have the same shape")
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    sim = z @ z.T / temperature
    # drop the self-similarities: every row keeps its 2n - 1 other entries
    off_diagonal = ~torch.eye(2 * n, dtype=torch.bool)
    logits = sim[off_diagonal].view(2 * n, 2 * n - 1)
    labels = (torch.arange(2 * n) + n) % (2 * n - 1)
    return F.cross_entropy(logits, labels)
