"""Probes: the inputs the mutation gate's oracle runs solutions on, made from a problem's own tests.

A probe is a case like a test's, built from one of the problem's tests (its
`origin`) by one small change (`change`):

- redrawn: the test's generators drawn again from other seeds (values change, shapes stay);
- structural: one argument changed the way a caller gets it wrong: an axis one longer or
  one shorter, an axis added or dropped (first or last), a size one more or less, a bool or a
  float where an int is due, a pair swapped or cut, another test's value of a scalar argument,
  another dtype;
- values: the floats made one-hot (exact ties, orthogonal rows, maxima that differ by row), an
  integer entry moved past the range the test spans or below zero. (Values scaled far up or
  down are left out: statements bound the magnitudes they promise, and beyond them correct
  implementations differ.)

Each probe knows whether it lies inside the problem's input domain
(judge.model.domain): one that passes an argument of another type than the
domain states (a float or a bool where an int is due, float labels) is outside
the contract, and the gate judges no mutant by it alone.

What a probe expects is what the trusted reference does on it: the builtin
exception class it raises, or its value (compared by the origin's tolerance
and, where the problem's statement has them, the gradient and mutation
checks of its tests). Probes whose inputs are equal are made once. Nothing
here runs untrusted code: the reference runs in the judge's process, as it
does for every test.
"""
from __future__ import annotations

import builtins
import hashlib
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator

import numpy as np

from judge import checks
from judge.checks import raises as raises_check
from judge.checks.result import EVERY_PROBE, REDRAWN_PROBES
from judge.model import generators

from judge.base import encoding as wire
from judge.model.cases import Case, Drawn, build_case, derive_seed, with_calls
from judge.base.errors import ConfigError
from judge.runs.calls import Call, run_call
from judge.judging.expected import Expected, expect
from judge.model.problem import CheckSpec, Hidden, Problem, TestSpec, Tolerance
from judge.base.quiet import quiet
from judge.base.encoding import Array

REDRAWS = 2            # each test drawn again from this many other seeds
STRUCTURAL_BASES = 4   # structural changes are made to this many of the smallest valid tests
VALUE_BASES = 12       # value changes to this many of the smallest valid tests


@dataclass(frozen=True)
class Probe:
    """One input of the oracle, with what the reference does on it."""

    case: Case
    expected: Expected
    origin: str            # the test it was made from
    change: str            # what was changed, in an author's words
    size: int              # the number of input elements: the smallest difference is reported
    raises: str | None     # the builtin class the reference raises on it, or None for a value
    outside: str | None = None   # why it lies outside the input domain (out of contract), or None

    @property
    def in_domain(self) -> bool:
        return self.outside is None

    @property
    def name(self) -> str:
        return self.case.name

    def describe(self) -> str:
        """The input in one line: its origin, its change and each argument's shape or value."""
        shown = ", ".join(f"{name}={_show(value)}" for name, value in zip(self.case.arg_names, self.case.args))
        outcome = f"the reference raises {self.raises}" if self.raises else "the reference returns a value"
        return f"test {self.origin!r}, {self.change}: {shown}; {outcome}"

    def to_json(self) -> dict:
        found = {"probe": self.name, "origin": self.origin, "change": self.change,
                 "inputs": {name: _show(value) for name, value in zip(self.case.arg_names, self.case.args)},
                 "reference": f"raises {self.raises}" if self.raises else "returns a value"}
        if self.outside:
            found["outside_domain"] = self.outside
        return found


@dataclass(frozen=True)
class _Candidate:
    origin: TestSpec
    change: str
    args: tuple[Any, ...]
    tolerance: Tolerance
    redraw: bool = False


def make_probes(problem: Problem, hidden: Hidden, reference: Callable, *, seed: int = 0) -> list[Probe]:
    """The oracle's probes for `problem`, deterministic for a `seed`."""
    bases: list[tuple[Case, bool]] = []   # (case, the reference returns a value on it)
    for test in (*problem.examples, *hidden.tests):
        try:
            case = build_case(problem, test, hidden.tolerance)
        except ConfigError:
            continue   # judge validate reports a test that cannot be drawn; no probe comes of it
        bases.append((case, _returns(reference, case.args, hidden)))
    valid = sorted((c for c, ok in bases if ok), key=lambda c: (_size(c.args), c.name))
    candidates: list[_Candidate] = []
    for case, _ in bases:
        candidates += _redraws(problem, hidden, case, seed)
    scalars = _scalar_values(problem, [c for c, _ in bases])
    for case in _distinct_shapes(valid)[:STRUCTURAL_BASES]:
        candidates += _structural(problem, case, scalars, seed)
    for case in valid[:VALUE_BASES]:
        candidates += _valued(problem, case, seed)
    return _settled(problem, hidden, reference, candidates, bases)


# ---------------------------------------------------------------- candidates

def _redraws(problem: Problem, hidden: Hidden, case: Case, seed: int) -> list[_Candidate]:
    found = []
    for k in range(1, REDRAWS + 1):
        renamed = replace(case.test, name=f"{case.name}~{seed}~{k}",
                          inputs={n: _reseeded(v, f"{seed}/{k}") for n, v in case.test.inputs.items()})
        try:
            drawn = build_case(problem, renamed, hidden.tolerance)
        except ConfigError:
            continue
        found.append(_Candidate(case.test, f"redrawn (seed {seed}, draw {k})", drawn.args, case.tolerance, redraw=True))
    return found


def _reseeded(spec: Any, salt: str) -> Any:
    """A generator with its fixed seeds moved consistently (two inputs sharing a seed still agree)."""
    if not isinstance(spec, generators.Spec):
        return spec
    if isinstance(spec, generators.MappingSpec):
        entries = {k: _reseeded(v, salt) for k, v in spec.params["entries"].items()}
        spec = replace(spec, params={**spec.params, "entries": entries})
    if spec.seed is not None:
        spec = replace(spec, seed=derive_seed(str(spec.seed), salt))
    return spec


def _structural(problem: Problem, case: Case, scalars: dict[str, list], seed: int) -> list[_Candidate]:
    found = []
    rng = np.random.default_rng(derive_seed(problem.id, case.name, f"probe:{seed}"))
    for i, (name, value) in enumerate(zip(case.arg_names, case.args)):
        for change, changed in _argument_changes(name, value, rng):
            found.append(_Candidate(case.test, change, _put(case.args, i, changed), case.tolerance))
        if not isinstance(value, (Array, dict)):
            for other, room in scalars.get(name, []):
                if not _same(other, value):
                    # Another test's mode or temperature may need that test's room (a mean, not a copy).
                    found.append(_Candidate(case.test, f"{name} = {_show(other)} (as another test gives it)",
                                            _put(case.args, i, other), _looser(case.tolerance, room)))
    # float64 only: a float32 probe of a float64 test would need float32's room, which the float32
    # tests already have. A dict argument's float entries (a model's parameters) go with the rest.
    args = tuple(_floats_as(v, "float64") for v in case.args)
    if not _same_args(args, case.args):
        found.append(_Candidate(case.test, "every float input as float64", args, case.tolerance))
    return found


def _valued(problem: Problem, case: Case, seed: int) -> list[_Candidate]:
    found = []
    rng = np.random.default_rng(derive_seed(problem.id, case.name, f"values:{seed}"))
    for i, (name, value) in enumerate(zip(case.arg_names, case.args)):
        if not isinstance(value, Array) or value.data.ndim == 0 or value.data.size == 0:
            continue
        if _is_float(value) and value.data.shape[-1] >= 2:
            hot = np.zeros_like(value.data)
            picks = rng.integers(0, value.data.shape[-1], size=value.data.shape[:-1])
            np.put_along_axis(hot, picks[..., None], 1.0, axis=-1)
            found.append(_Candidate(case.test, f"{name} one-hot along its last axis", _put(case.args, i, _like(value, hot)),
                                    case.tolerance))
        elif value.data.dtype.kind in "iu":
            data = value.data.copy()
            flat = data.reshape(-1)
            spot = int(rng.integers(0, flat.size))
            for moved, what in ((int(value.data.max()) + 1, "past the largest value"), (-1, "to -1")):
                changed = data.copy()
                changed.reshape(-1)[spot] = moved
                found.append(_Candidate(case.test, f"{name}: one entry moved {what}",
                                        _put(case.args, i, _like(value, changed)), case.tolerance))
    return found


def _argument_changes(name: str, value: Any, rng: np.random.Generator) -> Iterator[tuple[str, Any]]:
    """Each way one argument can come shaped or typed wrong."""
    if isinstance(value, Array):
        yield from _array_changes(name, value, rng)
    elif isinstance(value, dict):
        for key, entry in value.items():
            if isinstance(entry, Array):
                for change, changed in _array_changes(f'{name}["{key}"]', entry, rng, ranks=False):
                    yield change, {**value, key: changed}
            yield f'{name} without the key "{key}"', {k: v for k, v in value.items() if k != key}
    elif isinstance(value, bool):
        yield f"{name} = {not value}", not value
    elif isinstance(value, int):
        for other in (value + 1, value - 1, 0, -value):
            if other != value:
                yield f"{name} = {other} (was {value})", other
        yield f"{name} = {float(value)!r} (a float)", float(value)
        yield f"{name} = True (a bool, was {value})", True
    elif isinstance(value, float):
        for other in (-value, 0.0):
            if other != value:
                yield f"{name} = {other!r} (was {value!r})", other
    elif isinstance(value, (list, tuple)) and value and all(type(v) in (int, float) for v in value):
        kind = type(value)
        for k, item in enumerate(value):
            if type(item) is int:
                for other in (item + 1, item - 1, True, float(item)):
                    changed = list(value)
                    changed[k] = other
                    yield f"{name}[{k}] = {other!r} (was {item!r})", kind(changed)
        if len(value) >= 2:
            yield f"{name} reversed", kind(reversed(value))
            yield f"{name} without its last item", kind(value[:-1])
        yield f"{name} with one more item", kind([*value, value[-1]])


def _array_changes(name: str, value: Array, rng: np.random.Generator, ranks: bool = True
                   ) -> Iterator[tuple[str, Array]]:
    data = value.data
    for axis, length in enumerate(data.shape):
        yield f"{name} axis {axis} grown from {length} to {length + 1}", _like(value, _grown(data, axis, rng))
        if length >= 2:
            yield (f"{name} axis {axis} shrunk from {length} to {length - 1}",
                   _like(value, np.take(data, range(length - 1), axis=axis)))
    if ranks:
        # At both ends: a rank check masked by another (a batch size of 1, a length) is left alone only
        # where the other axes keep their sizes, which one end or the other keeps.
        yield f"{name} with a leading axis of 1 added", _like(value, data[None])
        yield f"{name} with a trailing axis of 1 added", _like(value, data[..., None])
        if data.ndim >= 1 and data.shape[0]:
            yield f"{name} with its first axis dropped", _like(value, data[0])
        if data.ndim >= 2 and data.shape[-1]:
            yield f"{name} with its last axis dropped", _like(value, data[..., 0])
    # One float input alone in another dtype is left out: statements ask for one dtype for all of them.
    if data.dtype.kind in "iu":
        yield f"{name} as float64", _as_dtype(value, "float64")


def _grown(data: np.ndarray, axis: int, rng: np.random.Generator) -> np.ndarray:
    """`data` with one more slice along `axis`: new normal values for floats, a copy of the last slice else."""
    last = np.take(data, [data.shape[axis] - 1], axis=axis) if data.shape[axis] else \
        np.zeros(data.shape[:axis] + (1,) + data.shape[axis + 1:], dtype=data.dtype)
    extra = rng.standard_normal(last.shape).astype(data.dtype) if data.dtype.kind == "f" else last
    return np.concatenate([data, extra], axis=axis)


def _scalar_values(problem: Problem, cases: list[Case]) -> dict[str, list[tuple[Any, Tolerance]]]:
    """Per argument, the plain (non-array) values the tests give it, each once (in test order) with the
    tolerance of the first test that gives it."""
    values: dict[str, list[tuple[Any, Tolerance]]] = {}
    for case in cases:
        for name, value in zip(case.arg_names, case.args):
            if isinstance(value, (Array, dict)):
                continue
            known = values.setdefault(name, [])
            if not any(_same(value, v) for v, _ in known):
                known.append((value, case.tolerance))
    return values


def _looser(a: Tolerance, b: Tolerance) -> Tolerance:
    """The room of both: the larger rtol and atol, overall and per output key."""
    keys = {name for name, _ in (*a.keys, *b.keys)}
    return Tolerance(max(a.rtol, b.rtol), max(a.atol, b.atol),
                     tuple((k, _looser_pair(a.for_key(k), b.for_key(k))) for k in sorted(keys)))


def _looser_pair(a: Tolerance, b: Tolerance) -> Tolerance:
    return Tolerance(max(a.rtol, b.rtol), max(a.atol, b.atol))


# ---------------------------------------------------------------- settling: what the reference does

def _settled(problem: Problem, hidden: Hidden, reference: Callable, candidates: list[_Candidate],
             bases: list[tuple[Case, bool]]) -> list[Probe]:
    properties = _properties(problem, hidden)
    probes: list[Probe] = []
    seen = {_fingerprint(c.args) for c, _ in bases}   # a probe equal to a test adds nothing
    for candidate in candidates:
        try:
            key = _fingerprint(candidate.args)
        except wire.WireError:
            continue
        if key in seen:
            continue
        seen.add(key)
        probe = _probe(problem, hidden, reference, candidate, properties, len(probes))
        if probe is not None:
            probes.append(probe)
    return probes


def _properties(problem: Problem, hidden: Hidden) -> dict[str, dict]:
    """The first parameters of each check every probe keeps (its `on_probes` trait) the problem's tests use:
    what its statement promises."""
    found: dict[str, dict] = {}
    for test in (*problem.examples, *hidden.tests):
        for spec in test.checks:
            if _kept(spec, redraw=False) and spec.type not in found:
                found[spec.type] = spec.params
    return found


def _probe(problem: Problem, hidden: Hidden, reference: Callable, candidate: _Candidate,
           properties: dict[str, dict], number: int) -> Probe | None:
    with quiet():
        main = run_call(reference, Call(args=candidate.args), str(hidden.reference))
    if main.error is not None:
        raised = _most_specific(main.error.bases)
        if raised is None:
            return None
        attempts = [(CheckSpec(checks.name_of(raises_check), {"type": raised}, 0),)]
    else:
        raised = None
        own = [s for s in candidate.origin.checks if _kept(s, candidate.redraw)]
        kept = own + [CheckSpec(kind, params, 0) for kind, params in properties.items()
                      if all(s.type != kind for s in own)]
        kept = [s for s in kept if _applies(s, problem.args, candidate.args)]
        compare = CheckSpec(checks.DEFAULT, {}, 0)
        attempts = [(compare, *kept), (compare,)] if kept else [(compare,)]
    tolerance = candidate.tolerance
    for selected in attempts:
        test = TestSpec(name=f"probe_{number:04d}", group="hidden", inputs=candidate.origin.inputs, checks=selected,
                        tolerance=tolerance, source=candidate.origin.source, rules=candidate.origin.rules)
        case = with_calls(Drawn(test=test, arg_names=problem.args, args=candidate.args, tolerance=tolerance,
                                problem=problem.id))
        try:
            with quiet():
                expected = expect(case, reference, hidden.reference)
        except ConfigError:
            continue   # the reference cannot make a property's extra call here: try without it
        return Probe(case=case, expected=expected, origin=candidate.origin.name, change=candidate.change,
                     size=_size(candidate.args), raises=raised,
                     outside=problem.domain.outside(problem.args, candidate.args))
    return None


def _kept(spec: CheckSpec, redraw: bool) -> bool:
    """Whether a probe keeps this check of its origin: every probe, or (`redraw`) a redrawn one too."""
    kept = checks.get(spec.type).traits.on_probes
    return kept == EVERY_PROBE or (redraw and kept == REDRAWN_PROBES)


def _applies(spec: CheckSpec, names: tuple[str, ...], args: tuple) -> bool:
    """Whether a kept check can be made on these inputs (its `applies_to` trait: a gradient needs float
    tensors to flow into)."""
    applies_to = checks.get(spec.type).traits.applies_to
    return applies_to is None or applies_to(names, args, **spec.params)


def _most_specific(bases: tuple[str, ...]) -> str | None:
    classes = [getattr(builtins, name) for name in bases if isinstance(getattr(builtins, name, None), type)]
    classes = [c for c in classes if issubclass(c, Exception)]
    return max(classes, key=lambda c: len(c.__mro__)).__name__ if classes else None


def _returns(reference: Callable, args: tuple, hidden: Hidden) -> bool:
    with quiet():
        return run_call(reference, Call(args=args), str(hidden.reference)).error is None


# ---------------------------------------------------------------- small helpers

def _put(args: tuple, i: int, value: Any) -> tuple:
    return (*args[:i], value, *args[i + 1:])


def _like(value: Array, data: np.ndarray) -> Array:
    return Array(data=np.array(data, dtype=value.data.dtype, order="C"), library=value.library, dtype=value.dtype)


def _floats_as(value: Any, dtype: str) -> Any:
    """`value` with every float array in it (a dict's entries too) in `dtype`."""
    if isinstance(value, Array):
        return _as_dtype(value, dtype) if _is_float(value) else value
    if isinstance(value, dict):
        return {k: _floats_as(v, dtype) for k, v in value.items()}
    return value


def _as_dtype(value: Array, dtype: str) -> Array:
    return Array(data=np.array(value.data, dtype=dtype, order="C"), library=value.library, dtype=dtype)


def _is_float(value: Array) -> bool:
    return value.dtype in ("float16", "bfloat16", "float32", "float64")


def _size(args: tuple) -> int:
    total = 0
    for value in args:
        if isinstance(value, Array):
            total += value.data.size
        elif isinstance(value, dict):
            total += _size(tuple(value.values()))
        elif isinstance(value, (list, tuple)):
            total += len(value)
        else:
            total += 1
    return total


def _distinct_shapes(cases: list[Case]) -> list[Case]:
    """The cases in order, one per layout of shapes and dtypes (the first, smallest, of each)."""
    seen, found = set(), []
    for case in cases:
        key = tuple(_layout(v) for v in case.args)
        if key not in seen:
            seen.add(key)
            found.append(case)
    return found


def _layout(value: Any) -> Any:
    if isinstance(value, Array):
        return (len(value.shape), value.dtype)
    if isinstance(value, dict):
        return tuple(sorted((k, _layout(v)) for k, v in value.items()))
    return type(value).__name__


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _same_args(a: tuple, b: tuple) -> bool:
    return _fingerprint(a) == _fingerprint(b)


def _fingerprint(args: tuple) -> str:
    return hashlib.sha256(wire.encode(list(args), 1 << 30)).hexdigest()


def _show(value: Any) -> str:
    if isinstance(value, Array):
        return f"{value.dtype}{list(value.shape)}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
