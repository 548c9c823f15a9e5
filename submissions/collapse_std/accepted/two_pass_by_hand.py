import math

import torch


def collapse_std(z):
    """Per-channel population std of the unit rows, averaged; written out in float64."""
    if not isinstance(z, torch.Tensor) or z.ndim != 2:
        raise ValueError("expected a 2-D tensor")
    n, d = z.shape
    if n < 2:
        raise ValueError("need at least two rows")
    x = z.to(torch.float64)
    norms = torch.sqrt((x * x).sum(dim=1, keepdim=True)).clamp(min=1e-12)
    u = x / norms
    total = 0.0
    for c in range(d):
        column = u[:, c]
        mean = column.sum() / n
        total += math.sqrt(float(((column - mean) ** 2).sum() / n))
    return total / d
