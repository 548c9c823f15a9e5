"""The training loop the learner's loss runs inside: deterministic SGD with momentum.

This runs in the sandbox child. Everything it needs arrives as plain data
(initial weights, training views, the batch order), so two runs with the same
data and the same loss give the same weights. It returns the trained weights
only; what they are worth is measured in the judge.
"""
from __future__ import annotations

from typing import Any, Callable


class ExperimentError(RuntimeError):
    """The learner's loss cannot train a model: wrong type, no gradient, a wrong shape."""


def as_loss(value: Any, step: int, key: str | None = None) -> Any:
    """The 0-dim loss tensor of one step's `value`, or ExperimentError saying why it cannot train."""
    import torch

    where = f"at step {step}, "
    if key is not None:
        if not isinstance(value, dict) or key not in value:
            raise ExperimentError(f"{where}the function returned {type(value).__name__}, not a dict with key {key!r}")
        value = value[key]
    what = f"`{key}`" if key else "the loss"
    if not isinstance(value, torch.Tensor):
        raise ExperimentError(f"{where}{what} is a {type(value).__name__}, not a torch.Tensor: training needs "
                              "a tensor connected to the weights by autograd")
    if value.numel() != 1 or value.dim() != 0:
        raise ExperimentError(f"{where}{what} has shape {tuple(value.shape)}; a loss is a 0-dim tensor")
    if not value.requires_grad:
        raise ExperimentError(f"{where}{what} does not depend on the weights through autograd "
                              "(.detach(), .item(), numpy or torch.tensor(...) cut the graph): nothing can train")
    return value


def sgd(weights: dict[str, Any], loss_at: Callable[[int, dict], Any], *, steps: int, lr: float,
        momentum: float = 0.9) -> dict[str, Any]:
    """Train `weights` for `steps` steps of SGD with momentum (as torch.optim.SGD); returns them detached.

    Written out rather than torch.optim.SGD: the optimiser's first use imports
    ~1.5 s of torch internals, which every fresh sandbox child would pay.
    """
    import torch

    names = list(weights)
    params = [weights[k].detach().clone().requires_grad_(True) for k in names]
    velocity = [torch.zeros_like(p) for p in params]
    for step in range(steps):
        loss = loss_at(step, dict(zip(names, params)))
        grads = torch.autograd.grad(loss, params, allow_unused=True)
        with torch.no_grad():
            for p, v, g in zip(params, velocity, grads):
                if g is not None:
                    v.mul_(momentum).add_(g)
                    p.sub_(lr * v)
    return {k: p.detach() for k, p in zip(names, params)}


def fit(data: dict, lr: float, loss_on: Callable[[dict, Any, Any, int], Any]) -> dict[str, Any]:
    """SGD over the batches of `data` (see world.draw_run); `loss_on(weights, view1, view2, step)`
    gives one batch's loss."""
    x1, x2 = data["views"]
    batches = data["batches"]
    return sgd(data["weights"], lambda step, w: loss_on(w, x1[batches[step]], x2[batches[step]], step),
               steps=len(batches), lr=lr)
