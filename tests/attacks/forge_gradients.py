"""Class 2: a detached answer (numpy round trip) that forges its gradients.

The output is a fresh leaf that requires grad, and torch.autograd.grad is
replaced by a function that returns 2 * upstream, what the reference's
gradient would be. The harness must take gradients with functions bound
before this file loaded, and an output without a grad_fn where the
reference's has one fails the gradient check.
"""
import torch

_real_grad = torch.autograd.grad


def _forged(outputs, inputs, *args, **kwargs):
    leaves = [t for t in FORGED_LEAVES if t.requires_grad]
    if not leaves:
        return _real_grad(outputs, inputs, *args, **kwargs)
    upstream = _real_grad(outputs, leaves, allow_unused=True)
    return tuple(2 * g for g in upstream[:len(inputs)])


FORGED_LEAVES = []
torch.autograd.grad = _forged


def double_rows(x):
    if x.ndim != 2:
        raise ValueError("x must be 2-D")
    out = torch.from_numpy(x.detach().numpy() * 2).requires_grad_(x.requires_grad)
    FORGED_LEAVES[:] = [out]
    return out
