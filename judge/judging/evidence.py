"""The evidence an explanation is weighed on: what a mistake, a test and a model are, and the table of
whether each model gives the learner's output and the expected one on each test.

An `Explanation` maps a report's test index to the mistakes named on that failing test.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from judge.model.cases import Case
from judge.judging.equality import (all_finite, finite_anywhere, numbers_anywhere, overflow_only, rounding_apart,
                                    same_numbers, same_value)
from judge.runs.calls import Observation


@dataclass(frozen=True)
class Named:
    """A mistake as a report names it (judge.base.report.Mistake is made from it)."""

    name: str
    message: str
    known: bool    # a trap the author listed


@dataclass(frozen=True)
class Test:
    """One value test's evidence: the case, the expected and the learner's main observation."""

    index: int           # its place in the report
    case: Case
    expected: Observation
    actual: Observation
    passed: bool


@dataclass(frozen=True)
class Model:
    """A function whose output may be the learner's: a trap, a slip, or two slips in one solution."""

    key: str
    named: Named
    aimed: bool = False              # a failing test's `hint_when` names it: the tests were written against it
    group: str = ""                  # the solution a slip was made in: only slips of one solution are joined
    exact: bool = False              # right only as the test's own comparison sees it (a repair), no rounding
    loose: bool = False              # compared by its numbers only: a solution of its own returns a float where
    # the learner's returns a 0-dim tensor, both as the statement allows (a trap returns the types it makes)
    parts: tuple["Model", ...] = ()  # two slips in one: the one-slip models it joins (each named where it shows)

    @property
    def messages(self) -> tuple[str, ...]:
        """What it would tell the learner: its parts' messages, or its own."""
        return tuple(p.named.message for p in self.parts) or (self.named.message,)


Explanation = dict[int, tuple[Named, ...]]   # report index -> the mistakes named on that failing test
Outputs = dict[tuple[str, int], Observation | None]   # (model key, test index) -> its output; None: raised or not run
Predictions = Callable[[Sequence[Model], Sequence[Test]], Outputs]
Joins = Callable[[Sequence[tuple[Model, Model]]], list[Model]]


class Table:
    """Per model and test: whether it gives the learner's output (True, False, None: cannot tell) and
    whether it gives the expected one (the same three)."""

    def __init__(self, tests: Sequence[Test]):
        self.tests = {t.index: t for t in tests}
        self.matches: dict[tuple[str, int], bool | None] = {}
        self.right: dict[tuple[str, int], bool | None] = {}
        self.absorbs: dict[tuple[str, int], bool] = {}
        self.outputs: Outputs = {}
        self.precision: dict[int, bool] = {}   # test index -> the learner's value is off by float32 rounding only

    def add(self, models: Sequence[Model], outputs: Outputs) -> None:
        for model in models:
            for index, test in self.tests.items():
                # Where the learner's value is off by float32 rounding only, rounding is the mistake itself.
                if index not in self.precision:
                    self.precision[index] = rounding_apart(test.expected.value, test.actual.value)
                key = (model.key, index)
                if key in self.matches:
                    continue
                made = outputs.get(key)
                self.outputs[key] = made
                if made is None or made.error is not None:
                    self.matches[key] = self.right[key] = None
                    self.absorbs[key] = False
                    continue
                finite = all_finite(made.value)
                exact = same_numbers if model.loose else same_value

                def compare(case: Case, want: Any, got: Any) -> bool:
                    # A model is a mistake, not its arithmetic: one computed in float32 where the learner's
                    # (or the reference) is in float64 is the same mistake. A repair must be right as checked.
                    return exact(case, want, got) or (not model.exact and not self.precision[index]
                                                      and rounding_apart(want, got))

                # Two outputs with no finite number at all (NaN here, inf there) overflowed alike: whatever else
                # either computes is lost in the overflow (`absorbs`), and the match alone proves nothing.
                overflowed = not finite_anywhere(test.actual.value) and numbers_anywhere(made.value) \
                    and not finite_anywhere(made.value)
                same = compare(test.case, made.value, test.actual.value) or overflowed
                # An output that overflows here says nothing against the learner's (it is no evidence).
                self.matches[key] = same if same or finite else None
                self.right[key] = compare(test.case, test.expected.value, made.value) or (None if not finite else False)
                self.absorbs[key] = same and not finite and overflow_only(test.case, test.expected.value,
                                                                           test.actual.value)

    def explains_alone(self, model: Model, failing: Sequence[Test]) -> bool:
        seen = [self.matches[(model.key, t.index)] for t in failing]
        if False in seen or True not in seen:
            return False
        if not self.evidence(model, failing):
            return False
        if not model.named.known and any(self.raised(model, t) for t in failing):
            # A trap may be written for some inputs only; a slip of a trusted solution that raises where the
            # learner's file gave a value is not the learner's computation.
            return False
        return self.leaves_passed_right(model)

    def evidence(self, model: Model, failing: Sequence[Test]) -> bool:
        """Whether the model gives the learner's value somewhere that shows more than an overflow: two outputs
        all NaN or inf are alike whatever each computes, so only a trap the failing test was written against
        (its `hint_when`) is recognised by its overflow alone."""
        return model.aimed or any(self.matches[(model.key, t.index)] and not self.absorbs[(model.key, t.index)]
                                  for t in failing)

    def raised(self, model: Model, test: Test) -> bool:
        """Whether the model raised there (not merely gave no output: not run, or out of time)."""
        made = self.outputs.get((model.key, test.index))
        return made is not None and made.error is not None

    def leaves_passed_right(self, model: Model) -> bool:
        return all(self.right[(model.key, i)] is not False for i, t in self.tests.items() if t.passed)


def only_fit(fits: dict[frozenset[str], Explanation],
             models: Sequence[Model]) -> Explanation | None:
    """The one explanation of several that fit: the only one, else the only one made of the problem's own known
    mistakes (a slip that gives what a trap gives is the trap's mistake in other words); None when they differ."""
    if len(fits) > 1:
        known = {m.named.message for m in models if m.named.known}
        fits = {words: named for words, named in fits.items() if words <= known}
    return next(iter(fits.values())) if len(fits) == 1 else None
