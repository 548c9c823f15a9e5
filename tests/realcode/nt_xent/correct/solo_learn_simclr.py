"""solo-learn's simclr_loss_func: a positive mask and a self mask over the 2N x 2N similarities, log-sum-exp.

Adapted from: vturrisi/solo-learn, solo/losses/simclr.py (simclr_loss_func, one device)
expect: accepted
"""
import torch
import torch.nn.functional as F


def _check(z1, z2, temperature):
    if z1.dim() != 2 or z1.shape != z2.shape:
        raise ValueError("z1 and z2 must be (N, d) tensors of one shape")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")


def nt_xent(z1, z2, temperature):
    _check(z1, z2, temperature)
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]), dim=-1)
    indexes = torch.arange(n).repeat(2)
    sim = z @ z.T / temperature
    pos_mask = indexes[:, None] == indexes[None, :]
    self_mask = torch.eye(2 * n, dtype=torch.bool)
    pos_mask = pos_mask & ~self_mask
    sim = sim.masked_fill(self_mask, float("-inf"))
    log_prob = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    return -(log_prob[pos_mask]).mean()
