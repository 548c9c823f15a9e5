"""Trusted reference for `nt_xent`: SimCLR's NT-Xent over (k, (k + N) mod 2N) pairs, in float64."""
import torch


def nt_xent(z1, z2, temperature):
    if not (isinstance(z1, torch.Tensor) and isinstance(z2, torch.Tensor)) or z1.dim() != 2 or z2.dim() != 2:
        raise ValueError("z1 and z2 must be 2-D tensors (N, d)")
    if z1.shape != z2.shape:
        raise ValueError(f"z1 and z2 must have one shape, got {tuple(z1.shape)} and {tuple(z2.shape)}")
    if not temperature > 0:
        raise ValueError(f"temperature must be a number > 0, got {temperature!r}")
    n = z1.shape[0]
    z = torch.cat([z1, z2]).double()
    z = z / z.norm(dim=1, keepdim=True).clamp_min(1e-12)
    s = z @ z.T / float(temperature)
    anchors = torch.arange(2 * n)
    s = s.masked_fill(anchors[:, None] == anchors[None, :], float("-inf"))  # the anchor, by index
    positives = (anchors + n) % (2 * n)
    loss = (torch.logsumexp(s, dim=1) - s[anchors, positives]).mean()
    return loss.to(z1.dtype)
