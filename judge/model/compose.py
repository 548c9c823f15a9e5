"""Composing problems: an input made by running another problem's reference.

The `output_of` generator (see judge/model/generators.py) lets a test feed one
problem's output into another, e.g. `unpatchify` judged on tokens made by
`patchify`'s reference: a round trip written in YAML alone. The other
problem's reference is trusted code from the same problem set and runs here,
in the judge's process, while the case is drawn; only the drawn value ever
reaches a submission.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from judge.base.quiet import quiet


@dataclass(frozen=True)
class Composable:
    """What composing needs of another problem: its argument names, its framework and its reference."""

    args: tuple[str, ...]
    framework: str
    reference: Callable


class References:
    """Other problems' references in one problem set, loaded once each through `load`.

    `load(problem_id)` is given by the caller (judge.model.problem.load_composable
    bound to a problem set), so composing does not depend on how problems are
    stored or parsed.
    """

    def __init__(self, load: Callable[[str], Composable]):
        self._load_one = load
        self._loaded: dict[str, Composable] = {}

    def _load(self, problem_id: str) -> Composable:
        if problem_id not in self._loaded:
            self._loaded[problem_id] = self._load_one(problem_id)
        return self._loaded[problem_id]

    def output(self, problem_id: str, inputs: dict[str, Any], rng: np.random.Generator) -> Any:
        """Draw `inputs` for `problem_id`'s arguments and return its reference's output."""
        from judge.model.generators import Spec

        other = self._load(problem_id)
        missing = [name for name in other.args if name not in inputs]
        extra = [name for name in inputs if name not in other.args]
        if missing or extra:
            raise ValueError(f"inputs must give exactly the arguments of {problem_id} "
                             f"({', '.join(other.args)}); missing {missing or 'none'}, unknown {extra or 'none'}")
        drawn: dict[str, Any] = {}
        for name in other.args:
            spec = inputs[name]
            if isinstance(spec, Spec):
                # Each nested argument gets its own stream, derived from this input's seed.
                seed = spec.seed if spec.seed is not None else int(rng.integers(2**32))
                drawn[name] = spec.draw(np.random.default_rng(seed), drawn, other.framework, context=self)
            else:
                drawn[name] = spec
        try:
            with quiet():  # trusted code of the hidden tests: its warnings show nowhere (judge.base.quiet)
                return other.reference(*(drawn[name] for name in other.args))
        except Exception as exc:  # a trusted reference rejecting these inputs is an authoring error
            raise ValueError(f"the reference of {problem_id} fails on these inputs: "
                             f"{type(exc).__name__}: {exc}") from None


def to_numpy(value: Any, output: str | None) -> np.ndarray:
    """The part `output` of a reference's returned value as a numpy array, dtype kept."""
    if output is not None:
        if not isinstance(value, dict) or output not in value:
            keys = sorted(value) if isinstance(value, dict) else None
            raise ValueError(f"output {output!r} is not a key of the returned value "
                             f"({'keys: ' + ', '.join(map(str, keys)) if keys else 'it is not a dict'})")
        value = value[output]
    elif isinstance(value, dict):
        raise ValueError(f"the reference returns a dict; choose one key with `output:` ({', '.join(map(str, value))})")
    if hasattr(value, "detach") and hasattr(value, "numpy"):
        tensor = value.detach().cpu()
        if str(tensor.dtype) == "torch.bfloat16":
            tensor = tensor.float()
        return tensor.numpy().copy()
    array = np.asarray(value)
    if array.dtype == object or not (np.issubdtype(array.dtype, np.number) or array.dtype == np.bool_):
        raise ValueError(f"the reference returned {type(value).__name__}, not numbers")
    return array
