import torch


def vit_pool(x: torch.Tensor, mode: str) -> torch.Tensor:
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    mode = mode.lower()   # mistake: "CLS" is not a mode; the statement asks for the exact strings
    if mode == "cls":
        return x[:, 0]
    if mode == "mean":
        if x.shape[1] < 2:
            raise ValueError("no patch tokens")
        return x[:, 1:].mean(dim=1)
    raise ValueError("unknown mode")
