"""Experiments: the learner's function inside a small, deterministic training run.

An experiment module (one per experiment: simsiam, nt_xent, clip) owns
- `SETTINGS`: its knobs and their defaults (sizes, steps, learning rate...);
- `FIGURES`: the outcome figures it measures, each a number to reach;
- `weight_shapes(settings)`: the weights training must give back;
- `setup(rng, settings)`: in the judge, a synthetic world drawn from the
  (hidden) seed, giving the training data for the child (initial weights,
  views, batch order) and the held-out data, which never leaves the judge;
- `train(fn, data, settings)`: in the sandbox child, deterministic SGD with
  the learner's function as the loss; returns the trained weights;
- `score(weights, heldout, settings)`: in the judge, held-out embeddings
  computed from the returned weights, and the figures;
- `failure(figure, before, after, minimum, settings)`: the learner's message.

The split is the point: whatever the child reports is ignored except the
weights, and those are judged on data the child never saw.
"""
from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

from judge.experiments import clip, nt_xent, simsiam
from judge.experiments.training import ExperimentError

__all__ = ["ExperimentError", "REGISTRY", "get", "settings", "train"]

REGISTRY: dict[str, ModuleType] = {"simsiam": simsiam, "nt_xent": nt_xent, "clip": clip}


def get(name: str) -> ModuleType:
    """The experiment module `name`; KeyError names the known ones."""
    if name not in REGISTRY:
        raise KeyError(f"unknown experiment {name!r}; the experiments are: {', '.join(REGISTRY)}")
    return REGISTRY[name]


def settings(name: str, overrides: dict | None) -> dict:
    """The experiment's defaults with `overrides`; ValueError for an unknown key or a wrong type."""
    defaults = get(name).SETTINGS
    merged = dict(defaults)
    for key, value in (overrides or {}).items():
        if key not in defaults:
            raise ValueError(f"unknown setting {key!r} of experiment {name!r}; its settings are: {', '.join(defaults)}")
        kind = type(defaults[key])
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and not isinstance(value, int)):
            raise ValueError(f"setting {key!r} of experiment {name!r} must be {'an int' if kind is int else 'a number'}, "
                             f"got {value!r}")
        merged[key] = kind(value)
    return merged


def train(plain: dict, fn: Callable) -> dict[str, Any]:
    """In the child: run experiment `plain["name"]` with `fn` on the revived `plain["data"]`."""
    import torch

    from judge.base import encoding as wire

    # One thread: the run is tiny (threads only add synchronisation, which a loaded machine turns into
    # seconds), and the same reduction order on every machine keeps the outcome reproducible.
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return get(plain["name"]).train(fn, wire.revive(plain["data"]), plain["settings"])
    finally:
        torch.set_num_threads(threads)
