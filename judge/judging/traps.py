"""The problem's traps (known mistakes): running them on a case in the judge's process, keeping their
outputs for a whole batch and in plain form for judge.model.cache, and telling whether one gives the
learner's output (`known_mistake`).
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from judge.base.encoding import Array
from judge.base.quiet import quiet
from judge.checks import compare
from judge.checks.observed import Observed
from judge.judging.diagnose import Diagnosis
from judge.judging.equality import kinds
from judge.judging.evidence import Test
from judge.judging.expected import plain
from judge.model.cases import MAIN, Case
from judge.model.problem import Trap
from judge.runs.calls import Observation, run_call

if TYPE_CHECKING:
    from judge.model.cache import TrapsEntry
    from judge.judging.shrink import Shrinker
    from judge.judging.slips import Slips

TRAP_KEEP_BYTES = 16 << 20  # trap outputs larger than this are recomputed rather than kept
FAR_LARGER = 4  # a large trap output this many times the size of both values of a test explains none of them


@dataclass(frozen=True)
class TrapSet:
    """The known mistakes and, loaded on the first diagnosis, the functions that make them.

    Trap modules import the framework; an accepted run never needs them, so
    the judge's process need not import torch for one. With an
    `entry` (judge.model.cache), the traps' outputs on `cases` are read from disk on
    the first need of one, or all made then and written, so the next process
    makes none; a wrong answer is then diagnosed without importing
    the trap module at all, unless a large output must be made again.
    """

    traps: tuple[Trap, ...]
    load: Callable[[], dict[str, Callable]]
    entry: TrapsEntry | None = None  # where its outputs are kept on disk (judge.model.cache); None: nowhere
    cases: tuple[Case, ...] = ()     # the cases the entry holds outputs for (a prepared problem's)
    slips: Slips | None = None       # the slip models of mistakes nobody listed (judge.judging.slips)
    shrinker: Shrinker | None = None  # the smallest input that shows a wrong value (judge.judging.shrink)
    # (case name, trap function) -> its TrapOutput: each trap runs once per case in a batch,
    # and a small output is encoded then, once.
    outputs: dict = field(default_factory=dict, compare=False, repr=False)
    _functions: dict = field(default_factory=dict, compare=False, repr=False)
    # Reentrant: filling the outputs from the traps loads the functions under the same lock.
    _lock: threading.RLock = field(default_factory=threading.RLock, compare=False, repr=False)
    _recalled: threading.Event = field(default_factory=threading.Event, compare=False, repr=False)

    @property
    def functions(self) -> dict[str, Callable]:
        with self._lock:  # batch grading diagnoses from several threads; load the module once
            if not self._functions:
                self._functions.update(self.load())
        return self._functions

    def recall(self) -> None:
        """Fill `outputs` once: from the entry when it is intact, else by running every trap on every
        case and writing the entry. The other diagnosing threads wait rather than run the same traps."""
        if self.entry is None or self._recalled.is_set():
            return
        with self._lock:
            if self._recalled.is_set():
                return
            stored = self.entry.load()
            found = _outputs_from_plain(stored, self) if stored is not None else None
            if found is not None:
                for key, output in found.items():
                    self.outputs.setdefault(key, output)
            else:
                try:
                    for case in self.cases:
                        for trap in self.traps:
                            if case.calls.main is not None and (case.name, trap.function) not in self.outputs:
                                _run_trap(case, self, trap)
                except Exception:
                    # The judge's failure, not a trap's (run_call catches those): a module that does not
                    # load, an output that cannot be encoded. No entry: each output is made when a
                    # diagnosis needs it, which fails there as it would without a cache.
                    pass
                else:
                    plain_outputs = _outputs_plain(self)
                    if plain_outputs is not None:
                        self.entry.store(plain_outputs)
            self._recalled.set()

    def run_ahead(self, cases: list[Case]) -> int:
        """Run every trap on every case now, as the first wrong answers would (a long-lived service
        worker does it while it warms up, so no submission waits for it); how many outputs."""
        made = 0
        for case in cases:
            for trap in self.traps:
                if case.calls.main is not None and trap_output(case, self, trap) is not None:
                    made += 1
        if any(o.shapes is not None and o.made is None for o in self.outputs.values()):
            self.functions  # noqa: B018 - a large output is made again on demand: load its module now, not then
        return made


@dataclass(frozen=True)
class TrapOutput:
    """What a trap gives on one case, kept for every later submission of a batch (and on disk)."""

    shapes: dict | None            # path -> shape of each array it returns; None: it raised here
    finite: bool                   # every number it returns is finite
    made: Observation | None       # its plain value as an observation, kept when small (TRAP_KEEP_BYTES); a
    # larger one is made again whenever a submission's shapes may match it. Only the value: diagnosing
    # compares nothing else (its time and inputs afterwards would only weigh on memory and the disk).


def known_mistake(case: Case, actual: dict[str, Observation], traps: TrapSet,
                  only: set[str] | None = None, matched: dict[str, bool | None] | None = None) -> Diagnosis | None:
    """The trap (of those named in `only`, when given) whose output equals the submission's
    (`matched`: each trap's answer, when known already).

    None when two traps with different messages both do: on this input the two
    mistakes coincide, and naming the first would name the wrong one as often as
    not (a later test, where they differ, names it).
    """
    def matches_here(trap: Trap) -> bool | None:
        return matched[trap.name] if matched is not None else _trap_matches(case, actual, traps, trap)

    matches = [trap for trap in traps.traps if (only is None or trap.name in only) and matches_here(trap)]
    aimed = [t for t in matches if t.name in case.test.hint_when]
    if len({trap.message for trap in matches}) > 1 and len(aimed) == 1:
        matches = aimed  # the test was written against this one (its hint_when names it): where they coincide,
        # as on a grid of the same count for a shortcut and a 1-D resize to the same length, it decides
    if len({trap.message for trap in matches}) > 1:
        # Within tolerance several fit; the one that returns the very types the submission did (a numpy
        # integer rather than a float) is the mistake, if exactly one does.
        observed = actual.get(MAIN)
        exact = [t for t in matches
                 if observed is not None and kinds(trap_value(case, traps, t)) == kinds(observed.value)]
        matches = exact if len({t.message for t in exact}) == 1 else []
    if not matches:
        return None
    return Diagnosis(matches[0].name, matches[0].message)


def trap_value(case: Case, traps: TrapSet, trap: Trap, near: Test | None = None) -> Any:
    """The trap's plain output value on this case, or None when it raised; with `near` (a test being
    explained), also None for a large output many times the size of the test's expected and actual
    values, which no relation makes into the learner's (encoding one is costly: patchify's
    stride-1 windows of a 224-pixel image are 33 M numbers)."""
    output = trap_output(case, traps, trap)
    if output is None or output.shapes is None:
        return None
    if near is not None and output.made is None:
        numbers = lambda shapes: sum(math.prod(s) for s in shapes.values())  # noqa: E731
        seen = max(numbers(array_shapes(near.expected.value)), numbers(array_shapes(near.actual.value)))
        if numbers(output.shapes) > FAR_LARGER * max(seen, 1):
            return None
    made = output.made if output.made is not None else _encode_output(case, traps, trap)
    return made.value if made.error is None else None


def trap_output(case: Case, traps: TrapSet, trap: Trap) -> TrapOutput | None:
    """The trap's output on this case, made once per batch (or read from the cache), its value kept
    when small enough; None when the trap set has no such function."""
    key = (case.name, trap.function)
    output = traps.outputs.get(key)
    if output is None:
        traps.recall()
        output = traps.outputs.get(key)
    return output if output is not None else _run_trap(case, traps, trap)


def _run_trap(case: Case, traps: TrapSet, trap: Trap) -> TrapOutput | None:
    """Run the trap on this case and keep its output (a larger one is encoded again whenever a
    submission's shapes may match it)."""
    fn = traps.functions.get(trap.function)
    if fn is None:
        return None
    with quiet():  # a trap's warning would print its line: the fix of the learner's mistake
        live = run_call(fn, case.calls.main, None)
    if live.error is not None:
        output = TrapOutput(None, False, None)
    else:
        output = TrapOutput(array_shapes(live.value), _finite_output(live.value), None)
        if _small(output):
            output = replace(output, made=plain(Observation(value=live.value)))
    traps.outputs[(case.name, trap.function)] = output
    return output


# ---------------------------------------------------------------- trap outputs in plain form (judge.model.cache)
# An entry's outputs: [[case name, trap function, shapes, finite, value], ...], where shapes is None (the
# trap raised) or [[path, shape], ...] with path and shape tuples (wire keeps tuples, ints, bools and
# strings apart, so a path comes back equal and equally hashed), and value is None (raised, or too
# large to keep) or [the plain value] (a list around it: a trap may well return None).

def _outputs_plain(traps: TrapSet) -> list | None:
    """The outputs of `traps` on its cases in plain form; None when one cannot come back exactly."""
    names = {case.name for case in traps.cases}
    records = []
    for (case_name, function), output in traps.outputs.items():
        if case_name not in names:
            continue
        shapes = None
        if output.shapes is not None:
            shapes = [[path, shape] for path, shape in output.shapes.items()]
            if not all(_plain_path(path) and _plain_shape(shape) for path, shape in shapes):
                return None  # a dict key of another type: made again in each process, as without a cache
        records.append([case_name, function, shapes, output.finite,
                        None if output.made is None else [output.made.value]])
    return records


def _outputs_from_plain(records: Any, traps: TrapSet) -> dict | None:
    """The outputs an entry holds, checked against `traps`; None (a miss, rebuilt) when anything
    about them is not what `_outputs_plain` writes."""
    known = {(case.name, trap.function) for case in traps.cases if case.calls.main is not None for trap in traps.traps}
    if type(records) is not list:
        return None
    outputs = {}
    for record in records:
        if type(record) is not list or len(record) != 5:
            return None
        case_name, function, shapes, finite, value = record
        key = (case_name, function)
        if type(case_name) is not str or type(function) is not str or key not in known or key in outputs:
            return None
        if type(finite) is not bool:
            return None
        if shapes is None:
            if finite or value is not None:
                return None
            outputs[key] = TrapOutput(None, False, None)
            continue
        if type(shapes) is not list or not all(type(s) is list and len(s) == 2 and _plain_path(s[0])
                                               and _plain_shape(s[1]) for s in shapes):
            return None
        output = TrapOutput(dict((path, shape) for path, shape in shapes), finite, None)
        if len(output.shapes) != len(shapes) or (value is None) == _small(output):
            return None  # a repeated path, or a value kept that should not be (or the reverse)
        if value is not None:
            if type(value) is not list or len(value) != 1:
                return None
            output = replace(output, made=Observation(value=value[0], time_ms=0.0))
        outputs[key] = output
    return outputs


def _plain_path(path: Any) -> bool:
    return type(path) is tuple and all(type(k) in (str, int, bool) for k in path)


def _plain_shape(shape: Any) -> bool:
    return type(shape) is tuple and all(type(d) is int and d >= 0 for d in shape)


def _small(output: TrapOutput) -> bool:
    return sum(math.prod(s) for s in output.shapes.values()) * 8 <= TRAP_KEEP_BYTES


def _encode_output(case: Case, traps: TrapSet, trap: Trap) -> Observation:
    with quiet():
        return plain(run_call(traps.functions[trap.function], case.calls.main, None))


def _finite_output(value: Any) -> bool:
    """Every number in a plain or live value is finite (None, a trap that raised, is not)."""
    if value is None:
        return False
    if isinstance(value, dict):
        return all(_finite_output(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return all(_finite_output(v) for v in value)
    if isinstance(value, Array):
        value = value.data
    if isinstance(value, (np.ndarray, np.generic)):
        return value.dtype.kind not in "fc" or bool(np.isfinite(value).all())
    if isinstance(value, float):
        return math.isfinite(value)
    if callable(getattr(value, "is_floating_point", None)):  # a torch tensor, from a trap run here
        return not (value.is_floating_point() or value.is_complex()) or bool(value.isfinite().all())
    return True


def _trap_matches(case: Case, actual: dict[str, Observation], traps: TrapSet, trap: Trap,
                  observed_shapes: dict | None = None) -> bool | None:
    """Whether `trap` gives the submission's output on `case`; None when it cannot tell (the trap raised).
    `observed_shapes`: `array_shapes` of the submission's output, when known already."""
    observed = actual.get(MAIN)
    if observed is None or observed.error is not None:
        return None
    if observed_shapes is None:
        observed_shapes = array_shapes(observed.value)
    output = trap_output(case, traps, trap)
    if output is None or output.shapes is None:
        return None  # no such function, or the trap raised on this case
    if not _may_match(output.shapes, observed_shapes):
        return False  # its arrays' shapes differ: compare would fail
    made = output.made if output.made is not None else _encode_output(case, traps, trap)
    return compare.passes(case, Observed(main=made), Observed(main=observed))


def array_shapes(value: Any, path: tuple = ()) -> dict[tuple, tuple[int, ...]]:
    """Path -> shape of every array with at least one axis in a (plain or live) value."""
    if isinstance(value, dict):
        return {p: s for k, v in value.items() for p, s in array_shapes(v, path + (k,)).items()}
    if isinstance(value, (list, tuple)):
        return {p: s for i, v in enumerate(value) for p, s in array_shapes(v, path + (i,)).items()}
    shape = getattr(value, "shape", None)
    return {path: tuple(shape)} if shape is not None and len(shape) > 0 else {}


def _may_match(trap_shapes: dict, observed_shapes: dict) -> bool:
    """False when compare must fail: it requires each expected array's shape at the same place."""
    return all(observed_shapes.get(p) == s for p, s in trap_shapes.items())
