import torch


def _cls(x):
    return x.select(1, 0)


def _mean(x):
    patches = x.shape[1] - 1
    if patches == 0:
        raise ValueError("no patch tokens to average")
    # sum then divide by the patch count; narrow() keeps the class token out
    return x.narrow(1, 1, patches).sum(dim=1) / patches


POOLS = {"cls": _cls, "mean": _mean}


def vit_pool(x, mode):
    if not isinstance(x, torch.Tensor) or x.ndim != 3:
        raise ValueError("expected a 3-D tensor")
    if not isinstance(mode, str) or mode not in POOLS:
        raise ValueError("mode must be 'cls' or 'mean'")
    return POOLS[mode](x)
