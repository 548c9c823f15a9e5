"""Four N x N blocks instead of one 2N x 2N matrix: anchors of z1 see z2's block as their positives' block."""
import torch
import torch.nn.functional as F


def nt_xent(z1, z2, temperature):
    if z1.dim() != 2 or z2.dim() != 2 or z1.shape != z2.shape:
        raise ValueError("z1 and z2 must be (N, d) tensors of one shape")
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    a, b = F.normalize(z1, dim=1), F.normalize(z2, dim=1)
    n = a.shape[0]
    eye = torch.eye(n, dtype=torch.bool)
    ab = a @ b.T / temperature
    aa = (a @ a.T / temperature).masked_fill(eye, float("-inf"))
    bb = (b @ b.T / temperature).masked_fill(eye, float("-inf"))
    from_a = torch.logsumexp(torch.cat([aa, ab], dim=1), dim=1) - ab.diagonal()
    from_b = torch.logsumexp(torch.cat([ab.T, bb], dim=1), dim=1) - ab.diagonal()
    return torch.cat([from_a, from_b]).mean()
