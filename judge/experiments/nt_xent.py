"""NT-Xent: a linear projector trained with the learner's `nt_xent` on two views (SimCLR).

One projector `z = x W` (dim_in -> dim) embeds both views, which share their
content and differ in a stronger, view-specific nuisance (see world.py). Each
step: `loss = nt_xent(x1[batch] W, x2[batch] W, temperature)`.

Scored in the judge on held-out pairs, from the returned W:
- `accuracy`: top-1 retrieval of view 2 from view 1 and of view 1 from view 2,
  averaged (1/N-level before training: the nuisance dominates a random W).
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from judge.experiments import retrieval, training
from judge.experiments.world import draw_run, initial_weights, make_world

SETTINGS = {"dim_in": 32, "dim": 8, "content_dim": 8, "nuisance_dim": 16, "nuisance_scale": 2.0,
            "noise": 0.1, "train": 512, "heldout": 256, "batch": 64, "steps": 150, "lr": 0.1,
            "temperature": 0.2}
FIGURES = {"accuracy": "top-1 retrieval accuracy between the two views of held-out samples, both directions averaged"}


def weight_shapes(s: dict) -> dict[str, tuple[int, ...]]:
    return {"projector": (s["dim_in"], s["dim"])}


def setup(rng: np.random.Generator, s: dict) -> tuple[dict, dict]:
    world = make_world(rng, dims=(s["dim_in"], s["dim_in"]), content_dim=s["content_dim"],
                       nuisance_dim=s["nuisance_dim"], nuisance_scale=s["nuisance_scale"], noise=s["noise"],
                       shared=True)
    return draw_run(rng, world, initial_weights(rng, weight_shapes(s)), s)


def train(fn: Callable, data: dict, s: dict) -> dict:
    def loss_on(w: dict, x1: Any, x2: Any, step: int) -> Any:
        return training.as_loss(fn(x1 @ w["projector"], x2 @ w["projector"], s["temperature"]), step)

    return training.fit(data, s["lr"], loss_on)


def score(w: dict, heldout: dict, s: dict) -> dict[str, float]:
    import torch

    h1, h2 = (torch.from_numpy(v).double() for v in heldout["views"])
    z1, z2 = h1 @ w["projector"], h2 @ w["projector"]
    return {"accuracy": (retrieval.top1(z1, z2) + retrieval.top1(z2, z1)) / 2}


def failure(figure: str, before: dict[str, float], after: dict[str, float], minimum: float, s: dict) -> str:
    return (f"training a projector with your loss did not learn to match the two views: held-out top-1 retrieval "
            f"accuracy went from {before['accuracy']:.3f} to {after['accuracy']:.3f} (this test needs at least "
            f"{minimum:.3f}, {s['heldout']} held-out pairs). The loss must pull row i of z1 toward row i of z2 "
            "(the positive of anchor k is k + N mod 2N) and push it away from every other row")
