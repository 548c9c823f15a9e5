"""lightly's NTXentLoss module itself, as a SimCLR training step calls it: criterion(out0, out1), no memory bank.

Adapted from: lightly-ai/lightly, examples/pytorch/simclr.py (criterion = NTXentLoss(); loss = criterion(z0, z1)) and lightly/loss/ntx_ent_loss.py
expect: accepted
"""
from lightly.loss import NTXentLoss


def nt_xent(z1, z2, temperature):
    if z1.dim() != 2 or z1.shape != z2.shape:
        raise ValueError("z1 and z2 must be (N, d) tensors of one shape")
    if not temperature > 0:  # lightly itself refuses only |temperature| < 1e-8
        raise ValueError("temperature must be > 0")
    criterion = NTXentLoss(temperature=temperature, memory_bank_size=0)
    return criterion(z1, z2)
