"""lightly's NTXentLoss without a memory bank: the same-view diagonal masked out, cross-entropy over 2N rows.

Adapted from: lightly-ai/lightly, lightly/loss/ntx_ent_loss.py (NTXentLoss.forward, memory bank size 0)
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
    batch_size = z1.shape[0]
    out0 = F.normalize(z1, dim=1)
    out1 = F.normalize(z2, dim=1)
    logits_00 = out0 @ out0.T / temperature
    logits_01 = out0 @ out1.T / temperature
    logits_10 = out1 @ out0.T / temperature
    logits_11 = out1 @ out1.T / temperature
    diag_mask = torch.eye(batch_size, dtype=torch.bool)
    logits_00 = logits_00[~diag_mask].view(batch_size, -1)
    logits_11 = logits_11[~diag_mask].view(batch_size, -1)
    logits_0100 = torch.cat([logits_01, logits_00], dim=1)
    logits_1011 = torch.cat([logits_10, logits_11], dim=1)
    logits = torch.cat([logits_0100, logits_1011], dim=0)
    labels = torch.arange(batch_size).repeat(2)
    return F.cross_entropy(logits, labels)
