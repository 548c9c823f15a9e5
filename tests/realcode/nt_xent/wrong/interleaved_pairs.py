"""Positives read as rows (2i, 2i + 1) of the concatenation, as for an interleaved batch.

Adapted from: Spijkervet/SimCLR, simclr/modules/nt_xent.py (positive indices taken as interleaved)
expect: wrong_answer
mistake: pairs_adjacent
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
    z = F.normalize(torch.cat((z1, z2), dim=0), dim=1)
    sim = z @ z.T / temperature
    n2 = sim.shape[0]
    sim = sim.masked_fill(torch.eye(n2, dtype=torch.bool), float("-inf"))
    positives = torch.arange(n2) ^ 1
    return F.cross_entropy(sim, positives)
