"""Only the N anchors of the first view: the loss of one direction.

Adapted from: lightly-ai/lightly, lightly/loss/ntx_ent_loss.py (only logits_0100 kept)
expect: wrong_answer
mistake: one_direction
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
    a, b = F.normalize(z1, dim=1), F.normalize(z2, dim=1)
    logits_01 = a @ b.T / temperature
    logits_00 = (a @ a.T / temperature)[~torch.eye(n, dtype=torch.bool)].view(n, -1)
    return F.cross_entropy(torch.cat([logits_01, logits_00], dim=1), torch.arange(n))
