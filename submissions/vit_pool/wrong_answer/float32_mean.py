import torch


def vit_pool(x: torch.Tensor, mode: str) -> torch.Tensor:
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    if mode == "cls":
        return x[:, 0]
    if mode == "mean":
        if x.shape[1] < 2:
            raise ValueError("no patch tokens")
        # mistake: computes in float32 and casts back, losing float64 precision
        return x[:, 1:].float().mean(dim=1).to(x.dtype)
    raise ValueError("unknown mode")
