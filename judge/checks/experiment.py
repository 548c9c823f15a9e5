"""experiment: the submitted loss trains a small model; the judge scores the trained weights.

    experiment: {name: simsiam, seed: 11, pass_if: {std_ratio: 0.2, alignment: 0.85},
                 settings: {steps: 200}, fails: [no_stop_gradient, same_view]}

The judge draws a synthetic world from `seed` (see judge/experiments/) and
sends the child the training data only: initial weights, two views, the batch
order. The child runs a fixed number of deterministic SGD steps with the
submission as the loss and sends back the trained weights. Back in the judge,
the weights must have exactly the expected names, shapes and dtype (float32)
and be finite; then the judge computes held-out embeddings itself, on data the
child never saw, and every figure in `pass_if` must reach its minimum. Nothing
the child reports besides the weights is used.

`settings` overrides the experiment's defaults; `fails` lists traps (functions
of traps.py) that `judge validate` runs through the same experiment and that
must fail it, as the reference must pass it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from judge import experiments

from judge.base import encoding as wire
from judge.checks.result import CheckResult, Param, Traits, fail, ok, params
from judge.base.errors import ConfigError
from judge.runs.calls import Call, Observation
from judge.base.encoding import Array

CALL = "run"
PARAMS = params(Param("name", str, required=True, what=f"one of {', '.join(experiments.REGISTRY)}"),
                Param("seed", int, default=0, what="an integer seed for the synthetic world"),
                Param("pass_if", dict, required=True, what="a mapping of outcome figure -> minimum"),
                Param("settings", dict, default=None, what="a mapping of experiment setting -> number"),
                Param("fails", list, default=None, what="a list of trap functions that must fail it"))
TRAITS = Traits(licenses=("experiment",), says_mistake=True)


@dataclass(frozen=True)
class Outcome:
    """Figures before and after training, and the first figure below its minimum (None: passed)."""

    before: dict[str, float]
    after: dict[str, float]
    failed: str | None = None
    message: str = ""


def _settings(case, name: str, pass_if: dict, settings: dict | None) -> dict:
    where = dict(file=case.test.source, field=f"{case.name}.experiment")
    try:
        merged = experiments.settings(name, settings)
    except (KeyError, ValueError) as exc:
        raise ConfigError(str(exc).strip("\"'"), **where) from None
    figures = experiments.get(name).FIGURES
    for figure, minimum in pass_if.items():
        if figure not in figures:
            raise ConfigError(f"pass_if: unknown figure {figure!r} of experiment {name!r}; its figures are: "
                              f"{', '.join(figures)}", **where)
        if isinstance(minimum, bool) or not isinstance(minimum, (int, float)):
            raise ConfigError(f"pass_if.{figure}: expected a number, got {minimum!r}", **where)
    return merged


def _torch_plain(value):
    """Numpy training data as the plain torch tensors the child revives."""
    import torch

    if isinstance(value, dict):
        return {k: _torch_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_torch_plain(v) for v in value]
    return wire.roundtrip(torch.from_numpy(value))


def calls(case, *, name: str, pass_if: dict, seed: int = 0, settings: dict | None = None,
          fails: list | None = None) -> dict[str, Call]:
    merged = _settings(case, name, pass_if, settings)
    data, _ = experiments.get(name).setup(np.random.default_rng(seed), merged)
    return {CALL: Call(args=(), experiment={"name": name, "settings": merged, "data": _torch_plain(data)})}


def evaluate(case, observation: Observation, *, name: str, pass_if: dict, seed: int = 0,
             settings: dict | None = None, fails: list | None = None) -> Outcome:
    """Score the weights in `observation` (a plain observation: from the child or the reference)."""
    import torch

    module = experiments.get(name)
    merged = _settings(case, name, pass_if, settings)
    data, heldout = module.setup(np.random.default_rng(seed), merged)
    before = module.score({k: torch.from_numpy(v).double() for k, v in data["weights"].items()}, heldout, merged)
    weights, problem = _weights(observation.value, module.weight_shapes(merged))
    if problem:
        return Outcome(before, {}, "weights", problem)
    after = module.score(weights, heldout, merged)
    for figure, minimum in pass_if.items():
        if not after[figure] >= minimum:  # also catches NaN
            return Outcome(before, after, figure, module.failure(figure, before, after, float(minimum), merged))
    return Outcome(before, after)


def _weights(value, shapes: dict[str, tuple[int, ...]]):
    """The returned weights as float64 tensors, or a message saying why they cannot be scored."""
    import torch

    if not isinstance(value, dict) or set(value) != set(shapes):
        return None, ("the training run did not return the trained weights "
                      f"(expected {', '.join(shapes)}): nothing can be scored")
    weights = {}
    for key, shape in shapes.items():
        w = value[key]
        if not (isinstance(w, Array) and w.library == "torch" and w.dtype == "float32" and w.shape == shape
                and not w.scalar):
            return None, f"the training run returned a malformed weight `{key}`: expected float32 {shape}"
        if not np.isfinite(w.data).all():
            return None, ("the weights became NaN or inf during training with your loss: training diverged "
                          "(a loss that overflows, or is unbounded below, such as a dot product of "
                          "unnormalised vectors, pushes the weights to infinity)")
        weights[key] = torch.from_numpy(np.asarray(w.data, dtype=np.float64))
    return weights, None


def check(case, expected, actual, **p) -> CheckResult:
    outcome = evaluate(case, actual[CALL], **p)
    return ok() if outcome.failed is None else fail(outcome.message)
