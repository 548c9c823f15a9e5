import torch


def collapse_std(z: torch.Tensor) -> torch.Tensor:
    if z.dim() != 2:
        raise ValueError(f"z must be 2-D, got shape {tuple(z.shape)}")
    if z.size(0) < 2:
        raise ValueError("the spread of fewer than two rows is undefined")
    unit = z / torch.linalg.vector_norm(z, dim=1, keepdim=True).clamp_min(1e-12)
    var, _ = torch.var_mean(unit, dim=0, correction=0)
    return var.sqrt().mean()
