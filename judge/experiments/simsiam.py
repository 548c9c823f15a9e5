"""SimSiam: a siamese encoder and predictor trained with the learner's `simsiam_loss`.

Encoder `z = relu(x W1 + b1) W2 + b2` (dim_in -> hidden -> dim) and predictor
`p = relu(z P1 + c1) P2 + c2` (dim -> bottleneck -> dim), biases included so
that a constant output, the collapsed solution, is reachable. Each step feeds
both views of a batch: `loss = simsiam_loss(p1, p2, z1, z2)`.

Scored in the judge on held-out pairs, from the returned weights:
- `std_ratio`: collapse_std of the held-out encoder outputs (per-channel std of
  the L2-normalised rows, averaged over channels) times sqrt(dim): about 1 for
  outputs spread over the sphere, 0 when every input maps to one direction;
- `alignment`: mean cosine between the predictor's output for view 1 and the
  encoder's output for view 2 of the same sample (what the loss asks for).
Without stop-gradient the pair can agree by mapping everything to one point:
alignment goes up while std_ratio falls toward 0.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from judge.experiments import training
from judge.experiments.world import draw_run, initial_weights, make_world

SETTINGS = {"dim_in": 32, "hidden": 64, "dim": 16, "bottleneck": 8, "content_dim": 8, "nuisance_dim": 16,
            "nuisance_scale": 2.0, "noise": 0.1, "train": 512, "heldout": 1024, "batch": 64,
            "steps": 200, "lr": 0.05}
FIGURES = {"std_ratio": "collapse_std x sqrt(dim) of held-out encoder outputs (1: spread, 0: collapsed)",
           "alignment": "mean cosine between predictor(view 1) and encoder(view 2) on held-out pairs"}


def weight_shapes(s: dict) -> dict[str, tuple[int, ...]]:
    return {"enc1": (s["dim_in"], s["hidden"]), "enc1_bias": (s["hidden"],),
            "enc2": (s["hidden"], s["dim"]), "enc2_bias": (s["dim"],),
            "pred1": (s["dim"], s["bottleneck"]), "pred1_bias": (s["bottleneck"],),
            "pred2": (s["bottleneck"], s["dim"]), "pred2_bias": (s["dim"],)}


def setup(rng: np.random.Generator, s: dict) -> tuple[dict, dict]:
    """Training data for the child (initial weights, views, batch order) and held-out views for the judge."""
    world = make_world(rng, dims=(s["dim_in"], s["dim_in"]), content_dim=s["content_dim"],
                       nuisance_dim=s["nuisance_dim"], nuisance_scale=s["nuisance_scale"], noise=s["noise"],
                       shared=True)
    return draw_run(rng, world, initial_weights(rng, weight_shapes(s)), s)


def encode(w: dict, x: Any) -> Any:
    return (x @ w["enc1"] + w["enc1_bias"]).relu() @ w["enc2"] + w["enc2_bias"]


def predict(w: dict, z: Any) -> Any:
    return (z @ w["pred1"] + w["pred1_bias"]).relu() @ w["pred2"] + w["pred2_bias"]


def train(fn: Callable, data: dict, s: dict) -> dict:
    """Runs in the child: SGD on the views with the learner's loss; the trained weights."""
    def loss_on(w: dict, x1: Any, x2: Any, step: int) -> Any:
        z1, z2 = encode(w, x1), encode(w, x2)
        return training.as_loss(fn(predict(w, z1), predict(w, z2), z1, z2), step)

    return training.fit(data, s["lr"], loss_on)


def score(w: dict, heldout: dict, s: dict) -> dict[str, float]:
    """In the judge, float64: the figures of FIGURES for weights `w` (torch tensors)."""
    import torch
    import torch.nn.functional as F

    h1, h2 = (torch.from_numpy(v).double() for v in heldout["views"])
    z1, z2 = encode(w, h1), encode(w, h2)
    spread = F.normalize(z1, dim=1).std(dim=0, unbiased=False).mean().item()
    alignment = F.cosine_similarity(predict(w, z1), z2, dim=1).mean().item()
    return {"std_ratio": spread * math.sqrt(s["dim"]), "alignment": alignment}


def failure(figure: str, before: dict[str, float], after: dict[str, float], minimum: float, s: dict) -> str:
    d = s["dim"]
    if figure == "std_ratio":
        return (f"the representation collapsed: the per-channel std of the normalised held-out outputs fell from "
                f"{before['std_ratio'] / math.sqrt(d):.3f} to {after['std_ratio'] / math.sqrt(d):.3f} "
                f"(spread outputs give about 1/sqrt({d}) = {1 / math.sqrt(d):.3f}; this test needs at least "
                f"{minimum / math.sqrt(d):.3f}). Every input is mapped to nearly the same direction, which makes "
                "the two views agree trivially. SimSiam avoids this through the stop-gradient: z1 and z2 "
                "must be constant targets (z.detach()), so gradients flow through the predictor side alone "
                "(a loss summed instead of averaged takes N times larger steps and can collapse too)")
    return (f"the two views did not align: the mean cosine between predictor(view 1) and encoder(view 2) on "
            f"held-out pairs went from {before['alignment']:.3f} to {after['alignment']:.3f} (this test needs at "
            f"least {minimum:.3f}). Minimising the loss must pull p1 toward z2 and p2 toward z1 (the other view), "
            "with the negative cosine")
