"""The collapse monitor of lightly's SimSiam tutorial, printing as the tutorial does: the tensor, then an f-string report.

Adapted from: lightly-ai/lightly, docs/source/tutorials_source/package/tutorial_simsiam_esa.py (output_std, collapse_level and the print of each epoch) and lightly/utils/debug.py (std_of_l2_normalized)
expect: accepted
"""
import torch
import torch.nn.functional as F


def collapse_std(z):
    if not isinstance(z, torch.Tensor) or z.dim() != 2:
        raise ValueError("z must be a 2-D tensor (N, d)")
    if z.shape[0] < 2:
        raise ValueError("need at least two rows for a spread")
    output = F.normalize(z, dim=1)
    print(output)
    output_std = torch.std(output, dim=0, unbiased=False)
    print(f"per-channel std: {output_std}")
    std = output_std.mean()
    out_dim = z.shape[1]
    collapse_level = max(0.0, 1 - (out_dim ** 0.5) * std.item())
    print(f"std = {std:.6f} | collapse level: {collapse_level:.2f} / 1.00 | {std!r} | {std}")
    return std.item()
