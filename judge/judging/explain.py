"""Explaining a wrong answer: the mistakes that together give the learner's outputs on every failing test.

A report's wrong values are explained as a whole, never one test at a time:
a name given on one test but contradicted by another is a guess, and "a
wrong name is worse than none". The candidates are

- models: functions whose output may be the learner's: the problem's traps (known mistakes) and
  slip models (judge.judging.slips: a trusted solution with one slip);
- relations (judge.judging.diagnose): how the learner's value relates to the expected one (a factor, a
  sign, a transpose), or to a trap's (a trap and a relation together).

An explanation is one candidate, or two models, and it is named only when it is proven:

- one model explains when it gives the learner's output on every failing value test (where it
  can tell: a trap that raises or overflows on an input says nothing there; two outputs with no
  finite number match whatever each computes, so an overflow alone proves only a trap the test
  was written against) and the expected output on every value test the learner passed;
- one relation explains when it holds in the same words on the failing value tests that were
  searched, on two of them or more and on most (a test that shows another contradicts it; one
  where the search finds none, as among near-duplicate tokens, does not): "times 2" on the one
  test of two rows is a coincidence, "times the number of rows" on every test is the mistake;
  where the whole output has none, a relation of one key on every test where that key is wrong.
  Words that only say what is seen ("in another order") are said where nothing else is, never
  beside the mistake that explains them; a change of the learner's file (or two) that makes every
  value right stands beside a relation that holds everywhere, saying where the difference comes from;
- a trap and a relation: the learner's values are the trap's, or relate to them in one way; where
  another trap relates to the expected values in that same way (a pair swap, a factor), the two
  traps are named instead;
- two models explain together when every failing test is one's output where the other's leaves
  the expected value (the other's slip does not show there), or is non-finite where one of them
  overflows (an overflow leaves nothing of the other slip to see), and both leave every passed
  test right. Each needs the other: neither alone explains. Or side by side: leaf by leaf, the
  learner's value is one model's where only it departs from the expected value and the expected
  value where neither does, each model proven where it shows alone.

When different explanations fit (two traps that coincide on every input tested, two slips said
in other words), none is named, unless the tests were written against one of them or one fit is
made of the problem's own traps alone.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

import numpy as np

from judge.model.cases import Case
from judge.checks import allclose, dtype, shape, structure
from judge.checks.observed import Observed
from judge.judging.diagnose import ANOTHER_ORDER, MOVED, SCALED, Diagnosis, relations
from judge.runs.calls import Observation
from judge.base.leaves import MISSING, all_leaves, leaves, numeric, top_key
from judge.base.numerics import SAMPLE, within
from judge.model.problem import Tolerance
from judge.base.encoding import Array

CANDIDATE_SLIPS = 40   # slip models carried from the first tests to all of them, at most
JOINED = 24            # models with two slips made and run, at most (the likeliest pairs)
PROJECTED = 256        # outputs longer than this are compared through a fixed random projection
FLOAT32 = 1e-5         # numbers this close (relative to a leaf's largest) differ by float32 rounding only
NEAREST = 3            # repairs of the learner's file tried with every other change (two slips), per measure
JOINED_REPAIRS = 1200  # files with two changes run on the first test, at most (each a sandbox call)
MENDED = 8             # changes of the learner's file run on every test beside a trap or slip, at most


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
    def said(self) -> tuple[str, ...]:
        """What it would tell the learner: its parts' messages, or its own."""
        return tuple(p.named.message for p in self.parts) or (self.named.message,)


Predictions = Callable[[Sequence[Model], Sequence[Test]], dict[tuple[str, int], Observation | None]]
Joins = Callable[[Sequence[tuple[Model, Model]]], list[Model]]


@dataclass(frozen=True)
class Slips:
    """How explain reaches the slip models (judge.judging.slips), whose runs cost a sandbox run each time:
    `models()` the one-slip models, `join(pairs)` the models with both slips of each pair (those that can
    be made)."""

    models: Callable[[], Sequence[Model]]
    join: Joins


@dataclass(frozen=True)
class Repairs:
    """How explain reaches repairs of the learner's own file (judge.judging.repairs): `models()` the file with one
    change each; `join(first, others)` the file with `first` and each of `others` made together;
    `beside(repair)` the repair as it is said where it leaves another mistake. A repair's model
    explains when it gives the expected value on every value test."""

    models: Callable[[], Sequence[Model]]
    join: Callable[[Model, Sequence[Model]], list[Model]]
    beside: Callable[[Model], Named]
    line: Callable[[Model], int] = lambda model: 0   # the line of the learner's file a repair changes


def explain(tests: Sequence[Test], traps: Sequence[Model], predict: Predictions,
            slips: Slips | None = None, repairs: Repairs | None = None) -> dict[int, tuple[Named, ...]]:
    """Report index -> the mistakes named on that failing test (absent: none is proven).

    `predict(models, tests)` gives each model's output on each test ((model key, test index) ->
    an Observation, or None where it raised or was not run); `slips` and `repairs` are asked for
    only when no trap or relation explains the failures.
    """
    failing = [t for t in tests if not t.passed]
    if not failing:
        return {}
    # A passed test whose checks never compared the value (a gradient's, an input's) shows no right value.
    tests = [t for t in tests if not t.passed or same_value(t.case, t.expected.value, t.actual.value)]
    table = _Table(tests)
    table.add(traps, predict(traps, tests))
    found = _single(table, traps, failing)
    if found is not None:
        return found
    relation = _relation(failing)
    smallest = [min(failing, key=lambda t: (_size(t.case), t.index))]
    if relation is not None and len(relation) == len(failing):
        # The same relation shows on every failing test: a fact, named; where a change of the learner's own file
        # (or two) makes every value right, it says beside it where the difference comes from. Known mistakes
        # that give the same values, with a relation or side by side, say it in their authors' words instead.
        known = _with_relation(table, traps, failing) or _superposed(table, traps, failing)
        if known is not None:
            return known
        fixes = _Repaired(table, tests, failing, smallest, predict, repairs) if repairs is not None else None
        found = (fixes.one() or fixes.two() or fixes.with_model(*_models_seen(table, traps, failing, predict, slips))
                 ) if fixes else None
        return _beside(relation, found) if found else relation
    found = _with_relation(table, traps, failing)
    if found is not None:
        return found
    fixes = _Repaired(table, tests, failing, smallest, predict, repairs) if repairs is not None else None
    found = (fixes.one() if fixes else None) or _slipped(table, traps, tests, failing, predict, slips, fixes)
    if found is None:
        return relation or {}
    if relation is not None and len(relation) >= 2:
        # A relation seen on several tests, contradicted on none, is a fact of its own beside the mistake that
        # explains them all (a float32 table: its values are right to float32 precision where they are found).
        found = _beside(relation, found)
    return found


def _unsaid(model: Model) -> int:
    """How many of a two-change repair's changes are said only as code (no slip words)."""
    return sum(p.named.name == "repair_unsaid" for p in model.parts)


def _beside(relation: dict[int, tuple[Named, ...]], found: dict[int, tuple[Named, ...]]) -> dict[int, tuple[Named, ...]]:
    """The relation's facts first, then the mistakes that explain them, test by test; a relation that only says
    what is seen ("the right values in another order") adds nothing beside the mistake that explains it."""
    if all(n.message.endswith(OBSERVED) for shown in relation.values() for n in shown):
        return found
    return {i: relation.get(i, ()) + found.get(i, ()) for i in {*found, *relation}}


def _slipped(table: _Table, traps: Sequence[Model], tests: Sequence[Test], failing: Sequence[Test],
             predict: Predictions, slips: Slips | None, fixes: "_Repaired | None") -> dict[int, tuple[Named, ...]] | None:
    """One slip, a trap and a slip or two traps apart, two changes to the learner's file, two slips of
    one solution together, or one change to the learner's file and a trap or slip."""
    models = list(traps)
    if slips is None:
        return _pair(table, models, failing) or (fixes.two() if fixes else None) \
            or (fixes.with_model(models, {}) if fixes else None) or _superposed(table, models, failing)
    every = list(slips.models())
    first, seen = _first_tests(table, traps, failing), {}
    if every:
        seen = predict(every, first)
    candidates = _slip_candidates(table, every, first, seen, predict)
    found = _single(table, candidates, failing) or _pair(table, models + candidates, failing) \
        or (fixes.two() if fixes else None) or _superposed(table, models + candidates, failing)
    if found is not None:
        return found
    joined = slips.join(_likely_pairs(every, first, seen))
    if joined:
        parts = [p for m in joined for p in m.parts]
        table.add(parts, predict(parts, tests))
        table.add(joined, predict(joined, tests))
        found = _single(table, joined, failing)
    return found or (fixes.with_model(models + every, seen) if fixes else None)


def _models_seen(table: _Table, traps: Sequence[Model], failing: Sequence[Test], predict: Predictions,
                 slips: Slips | None) -> tuple[list[Model], dict[tuple[str, int], Observation | None]]:
    """The traps and one-slip models, with the slip models' outputs on the first tests."""
    every = list(slips.models()) if slips is not None else []
    return list(traps) + every, (predict(every, _first_tests(table, traps, failing)) if every else {})


class _Repaired:
    """Repairs of the learner's file: the changes that make every value right, one or two at a time."""

    def __init__(self, table: _Table, tests: Sequence[Test], failing: Sequence[Test], first: Sequence[Test],
                 predict: Predictions, repairs: Repairs):
        self.table, self.tests, self.failing, self.first = table, tests, failing, first
        self.predict, self.repairs = predict, repairs
        self.every = list(repairs.models())
        self.seen = predict(self.every, first) if self.every else {}

    def _fixing(self, models: Sequence[Model]) -> list[Model]:
        """Those of `models` right on the first tests, then (run everywhere) right on every value test."""
        hopeful = [m for m in models if all(self._right_first(m, t) for t in self.first)]
        self.table.add(hopeful, self.predict(hopeful, self.tests))
        return [m for m in hopeful if all(self.table.right[(m.key, i)] is True for i in self.table.tests)]

    def _right_first(self, model: Model, test: Test) -> bool:
        made = self.seen.get((model.key, test.index))
        return made is not None and made.error is None and same_value(test.case, test.expected.value, made.value)

    def one(self) -> dict[int, tuple[Named, ...]] | None:
        """One change that makes every value right: the first in the file (said in slip words where they can)."""
        fixes = self._fixing(self.every)
        if not fixes:
            return None
        fix = min(fixes, key=lambda m: (m.named.name.startswith("repair_unsaid"), self.every.index(m)))
        return {t.index: (fix.named,) for t in self.failing}

    def two(self) -> dict[int, tuple[Named, ...]] | None:
        """Two changes that together make every value right: each of the changes that bring the first
        tests' values nearer the expected ones made with every other change, the likeliest first."""
        nearest = self._nearest()
        if not nearest:
            return None
        # The second change is first sought among those that change the first tests' values alone, then among
        # those that change nothing there (a scale on an accuracy of 0 shows only once the predictions are
        # right); a change that raises alone is not one of two that make every value right.
        moving, still = [], []
        for model in self.every:
            made = [self.seen.get((model.key, t.index)) for t in self.first]
            if all(m is not None and m.error is None for m in made):
                same = all(same_value(t.case, t.actual.value, m.value) for t, m in zip(self.first, made))
                (still if same else moving).append(model)
        budget, best = JOINED_REPAIRS, None
        for others, first in ((others, first) for others in (moving, still) for first in nearest):
            tried = [m for m in others if m is not first][:budget]
            budget -= len(tried)
            joined = self.repairs.join(first, tried)
            self.seen.update(self.predict(joined, self.first))
            # Of several pairs that make every value right, one said in slip words (a `sum` where `mean`
            # belongs, not a `/ n` dropped after a mean): a pair with a change said only as code is kept
            # while the others are tried.
            for fix in self._fixing(joined):
                if best is None or _unsaid(fix) < _unsaid(best):
                    best = fix
            if (best is not None and not _unsaid(best)) or budget <= 0:
                break
        if best is None:
            return None
        return {t.index: tuple(p.named for p in best.parts) for t in self.failing}

    def with_model(self, models: Sequence[Model], seen: dict[tuple[str, int], Observation | None]
                   ) -> dict[int, tuple[Named, ...]] | None:
        """One change of the learner's file after which it gives what one model gives (a trap, or a slip of
        another trusted solution) on every failing test: two mistakes, the one the change undoes and the
        model's, which no change undoes (a normalisation left out, a minus sign dropped). Both leave every
        passed test right, and each shows on a failing test. `seen`: the models' outputs on the first tests
        (the table holds the traps'). Named only when every pair that fits says the same (or every pair with a
        trap: a slip that gives what a trap gives is the trap's mistake, in other words).

        The pairs are looked for on the first test, and, for each model that gives the learner's value
        there (the change's slip does not show on it), on the smallest failing test where it does not."""
        said = [r for r in self.every if r.named.name != "repair_unsaid"]
        if not said:
            return None
        first = self.first[0]
        outputs = {**self.table.outputs, **seen}
        # On the first test every model is looked at, those whose value is wrong there: a right one would ask
        # the change alone to make this test right, which a model that departs there finds anyway.
        candidates = self._alike(first, [(m, v) for m in models if (v := _value(outputs.get((m.key, first.index))))
                                         is not None and not same_value(first.case, first.expected.value, v)], said)
        for test, there in [*self._departing(models, outputs), *self._known_departing(models, first)]:
            self.seen.update(self.predict([r for r in said if (r.key, test.index) not in self.seen], [test]))
            candidates += self._alike(test, there, said)
        repairs = list({r.key: r for r, _ in candidates})[:MENDED]   # each repair is run on every test
        candidates = [pair for pair in dict.fromkeys(candidates) if pair[0].key in repairs]
        if not candidates:
            return None
        needed = list({m.key: m for pair in candidates for m in pair}.values())
        self.table.add(needed, self.predict(needed, self.tests))
        fits: dict[frozenset[str], tuple[Model, dict[int, tuple[Named, ...]]]] = {}
        for repair, model in candidates:
            named = self._mended(repair, model)
            if named is not None:
                # Two changes of one line said in the same words (`dim=1`, `dim=-1`) are one explanation.
                words = frozenset(n.name if n.name.startswith("repair_") and n.name != "repair_unsaid" else n.message
                                  for shown in named.values() for n in shown)
                fits.setdefault(words | {f"line {self.repairs.line(repair)}"}, (model, named))
        if len(fits) > 1:
            # A trap and a slip that give the same values are one mistake: the author's words for it are kept.
            fits = {words: fit for words, fit in fits.items() if fit[0].named.known}
        return next(iter(fits.values()))[1] if len(fits) == 1 else None

    def _known_departing(self, models: Sequence[Model], first: Test) -> list[tuple[Test, list[tuple[Model, Any]]]]:
        """For the known mistakes right on the first test (the one the learner's other mistake alone makes
        wrong there: a bias added in the wrong place, on a test with no bias), the smallest failing test where
        each departs from the expected value, with its output there."""
        found: dict[int, tuple[Test, list[tuple[Model, Any]]]] = {}
        for model in models:
            if not model.named.known or self.table.right.get((model.key, first.index)) is not True:
                continue
            apart = [t for t in self.failing if self.table.right.get((model.key, t.index)) is False]
            if apart:
                test = min(apart, key=lambda t: (_size(t.case), t.index))
                found.setdefault(test.index, (test, []))[1].append(
                    (model, self.table.outputs[(model.key, test.index)].value))
        return list(found.values())

    def _departing(self, models: Sequence[Model], outputs: dict[tuple[str, int], Observation | None]
                   ) -> list[tuple[Test, list[tuple[Model, Any]]]]:
        """Per failing test, the models that give the learner's value on a first test and another value there
        (the smallest such test of each; at most CANDIDATE_SLIPS models, run on every test)."""
        matching = [m for m in models if any(
            (v := _value(outputs.get((m.key, t.index)))) is not None and _same_numbers(t.case, v, t.actual.value)
            for t in self.first)][:CANDIDATE_SLIPS]
        self.table.add(matching, self.predict(matching, self.tests))
        found: dict[int, tuple[Test, list[tuple[Model, Any]]]] = {}
        for model in matching:
            apart = [t for t in self.failing if self.table.matches[(model.key, t.index)] is False]
            if apart:
                test = min(apart, key=lambda t: (_size(t.case), t.index))
                found.setdefault(test.index, (test, []))[1].append(
                    (model, self.table.outputs[(model.key, test.index)].value))
        return list(found.values())

    def _alike(self, test: Test, models: Sequence[tuple[Model, Any]],
               said: Sequence[Model]) -> list[tuple[Model, Model]]:
        """(repair, model) pairs whose outputs agree on `test` (`models`: each with its output there, None
        where it has none), where the repair changes the learner's value, in the order of the file. Only
        changes said in slip words (`said`) undo a slip: one said only as code may as well make one (drop a
        normalisation the file rightly has) and land on another solution's slip."""
        given = [(m, v) for m, v in models if v is not None]
        changed = [(r, v) for r in said if (v := _value(self.seen.get((r.key, test.index)))) is not None
                   and not same_value(test.case, v, test.actual.value)]
        if not given or not changed:
            return []
        flat = {id(v): f for _, v in given + changed if (f := _flat(v, test.expected.value)) is not None}
        width = {len(f[0]) for f in flat.values()}
        if not flat or len(width) != 1:
            return []
        sketch = _Sketch(width.pop())
        ms = [(m, v) for m, v in given if id(v) in flat]
        rs = [(r, v) for r, v in changed if id(v) in flat]
        if not ms or not rs:
            return []
        with np.errstate(over="ignore", invalid="ignore"):
            of_models = np.stack([sketch(flat[id(v)][0]) for _, v in ms])
            of_repairs = np.stack([sketch(flat[id(v)][0]) for _, v in rs])
            scale = float(np.abs(sketch(flat[id(ms[0][1])][1])).max()) + 1e-12
            # A loose first look (sketches of equal values are equal; of values within tolerance, near): the
            # pairs it keeps are compared as the tests compare.
            near = [np.nonzero(np.abs(of_models - row).max(axis=1) <= 1e-2 * scale)[0] for row in of_repairs]
        pairs = []
        for i, js in enumerate(near):
            for j in js:
                (repair, made), (model, want) = rs[i], ms[j]
                if same_value(test.case, want, made) or (not model.exact and _rounding_apart(want, made)):
                    pairs.append((repair, model))
        return pairs

    def _mended(self, repair: Model, model: Model) -> dict[int, tuple[Named, ...]] | None:
        """The names on each failing test where `repair` of the learner's file gives `model`'s output on every
        one; None where it does not, or either is not needed."""
        table, named, shows = self.table, {}, set()
        for test in self.failing:
            made, want = table.outputs.get((repair.key, test.index)), table.outputs.get((model.key, test.index))
            if made is None or want is None or made.error is not None or want.error is not None:
                return None
            if not (same_value(test.case, want.value, made.value)
                    or (not model.exact and _rounding_apart(want.value, made.value))):
                return None
            here = []
            if table.matches[(repair.key, test.index)] is False:
                here.append(self.repairs.beside(repair))
                shows.add("repair")
            if table.right[(model.key, test.index)] is False:
                here.append(model.named)
                shows.add("model")
            if here:
                named[test.index] = tuple(here)
        passed_right = all(table.right[(m.key, i)] is not False for m in (repair, model)
                           for i, t in table.tests.items() if t.passed)
        return named if shows == {"repair", "model"} and passed_right else None

    def _nearest(self) -> list[Model]:
        """The changes that bring the first tests' values nearer the expected ones, NEAREST by each measure
        in turn: one slip's fix shows as progress in one way or another, not always in the distance (a
        fixed sign under a wrong scale, predictions made right while the accuracy computed from them
        is scaled wrong, a shape made right while the numbers are not)."""
        start = _progress(self.first, [t.actual for t in self.first])
        if start is None:
            return []
        scored: list[list[tuple[float, int, Model]]] = [[] for _ in start]
        for k, model in enumerate(self.every):
            made = [self.seen.get((model.key, t.index)) for t in self.first]
            if any(m is None or m.error is not None for m in made):
                continue
            now = _progress(self.first, made)
            if now is None:
                continue
            for measure, (before, after) in enumerate(zip(start, now)):
                if np.isfinite(after) and after < before * (1 - 1e-6):
                    scored[measure].append((after, k, model))
        ranked = [sorted(s, key=lambda x: x[:2]) for s in scored]
        order: dict[str, Model] = {}
        for rank in range(NEAREST):
            for measure in ranked:
                if rank < len(measure):
                    order.setdefault(measure[rank][2].key, measure[rank][2])
        return list(order.values())


# ---------------------------------------------------------------- evidence

class _Table:
    """Per model and test: whether it gives the learner's output (True, False, None: cannot tell) and
    whether it gives the expected one (the same three)."""

    def __init__(self, tests: Sequence[Test]):
        self.tests = {t.index: t for t in tests}
        self.matches: dict[tuple[str, int], bool | None] = {}
        self.right: dict[tuple[str, int], bool | None] = {}
        self.absorbs: dict[tuple[str, int], bool] = {}
        self.outputs: dict[tuple[str, int], Observation | None] = {}
        self.precision: dict[int, bool] = {}   # test index -> the learner's value is off by float32 rounding only

    def add(self, models: Sequence[Model], outputs: dict[tuple[str, int], Observation | None]) -> None:
        for model in models:
            for index, test in self.tests.items():
                # Where the learner's value is off by float32 rounding only, rounding is the mistake itself.
                if index not in self.precision:
                    self.precision[index] = _rounding_apart(test.expected.value, test.actual.value)
                key = (model.key, index)
                if key in self.matches:
                    continue
                made = outputs.get(key)
                self.outputs[key] = made
                if made is None or made.error is not None:
                    self.matches[key] = self.right[key] = None
                    self.absorbs[key] = False
                    continue
                finite = _finite(made.value)
                exact = _same_numbers if model.loose else same_value

                def compare(case: Case, want: Any, got: Any) -> bool:
                    # A model is a mistake, not its arithmetic: one computed in float32 where the learner's
                    # (or the reference) is in float64 is the same mistake. A repair must be right as checked.
                    return exact(case, want, got) or (not model.exact and not self.precision[index]
                                                      and _rounding_apart(want, got))

                # Two outputs with no finite number at all (NaN here, inf there) overflowed alike: whatever else
                # either computes is lost in the overflow (`absorbs`), and the match alone proves nothing.
                overflowed = not _finite_anywhere(test.actual.value) and _numbers_anywhere(made.value) \
                    and not _finite_anywhere(made.value)
                same = compare(test.case, made.value, test.actual.value) or overflowed
                # An output that overflows here says nothing against the learner's (it is no evidence).
                self.matches[key] = same if same or finite else None
                self.right[key] = compare(test.case, test.expected.value, made.value) or (None if not finite else False)
                self.absorbs[key] = same and not finite and _overflow_only(test.case, test.expected.value,
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


def same_value(case: Case, want: Any, got: Any) -> bool:
    """`got` is `want` as the value checks see it: structure, shape and dtype, then every number within
    the test's tolerance (relative to `want`), NaN where NaN and the same infinities."""
    expected, actual = Observed(main=Observation(value=want)), Observed(main=Observation(value=got))
    if not allclose.matches(want, got, case.tolerance):
        return False
    return all(stage.check(case, expected, actual).passed for stage in (structure, shape, dtype))


def _numeric_pairs(want: Any, got: Any) -> list[tuple[Any, Any, np.ndarray, np.ndarray]] | None:
    """The numeric leaves of `want` and `got` side by side, as leaves and arrays (one-element ones as
    0-dim); None where the two differ in keys or items, or in a leaf that is not a number."""
    pairs = []
    for _, e, a in all_leaves(want, got):
        if e is MISSING or a is MISSING:
            return None
        ev, av = numeric(e), numeric(a)
        if ev is None or av is None:
            if (ev is None) != (av is None) or e != a:
                return None
            continue
        if ev.size == 1 and av.size == 1:
            ev, av = ev.reshape(()), av.reshape(())
        pairs.append((e, a, ev, av))
    return pairs


def _same_numbers(case: Case, want: Any, got: Any) -> bool:
    """`got` has `want`'s keys and items, and its numbers are `want`'s within the test's tolerance, in
    the same shapes and float precision, whatever holds them (a float, a 0-dim tensor or array)."""
    pairs = _numeric_pairs(want, got)
    if pairs is None:
        return False
    for e, a, ev, av in pairs:
        if ev.shape != av.shape:
            return False
        floats = [x.dtype for x in (e, a) if isinstance(x, Array) and not x.scalar and x.data.dtype.kind == "f"]
        if len(floats) == 2 and floats[0] != floats[1]:
            return False
    return allclose.matches(want, got, case.tolerance)


def _rounding_apart(want: Any, got: Any) -> bool:
    """The same numbers but for float32 rounding: every leaf of the same shape, non-finite where the
    other is, and within FLOAT32 of the leaf's largest magnitude (as judge.judging.diagnose's float32_values)."""
    pairs = _numeric_pairs(want, got)
    if pairs is None:
        return False
    for _, _, ev, av in pairs:
        if ev.shape != av.shape or ev.dtype.kind not in "fc" and av.dtype.kind not in "fc":
            if ev.shape != av.shape or not np.array_equal(ev, av):
                return False
            continue
        if ev.size > SAMPLE and not _sample_apart(ev, av):
            return False   # most outputs differ at a glance: a few entries tell, before whole copies are made
        e64, a64 = ev.astype(np.float64), av.astype(np.float64)
        finite = np.isfinite(e64)
        if not np.array_equal(finite, np.isfinite(a64)) or not np.array_equal(e64[~finite], a64[~finite], equal_nan=True):
            return False
        scale = float(np.max(np.abs(e64[finite]))) if finite.any() else 0.0
        if finite.any() and not np.all(np.abs(a64[finite] - e64[finite]) <= FLOAT32 * scale):
            return False
    return True


def _sample_apart(ev: np.ndarray, av: np.ndarray) -> bool:
    """Whether a few evenly spread entries of `av` are within float32 rounding of `ev`'s (NaN where NaN)."""
    picks = np.linspace(0, ev.size - 1, SAMPLE).astype(np.intp)
    e, a = ev.reshape(-1)[picks].astype(np.float64), av.reshape(-1)[picks].astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        finite = np.isfinite(ev)
        scale = float(np.max(np.abs(ev[finite]))) if finite.any() else 0.0
        close = (np.abs(a - e) <= FLOAT32 * scale) | (np.isnan(e) & np.isnan(a)) | (e == a)
    return bool(close.all())


def _value(made: Observation | None) -> Any:
    """An output's value; None where there is none (not run, or it raised)."""
    return None if made is None or made.error is not None else made.value


def _finite(value: Any) -> bool:
    return all(np.isfinite(v).all() for _, v, _ in _numbers(value))


def _finite_anywhere(value: Any) -> bool:
    """Some number of `value` is finite (an output all NaN or inf shows nothing but the overflow)."""
    return any(np.isfinite(v).any() for _, v, _ in _numbers(value))


def _overflow_only(case: Case, want: Any, got: Any) -> bool:
    """Wherever `got` departs from `want`, it holds no finite number: an overflow (a NaN loss beside right
    similarities) leaves nothing of any other mistake there to see."""
    per_leaf = _entrywise(case, want, got)
    if per_leaf is None:
        return not _finite_anywhere(got)
    wrong = [a for (_, _, a), same in zip(_leaf_values(want, got), per_leaf) if not same.all()]
    return bool(wrong) and all(not _finite_anywhere(a) for a in wrong)


def _leaf_values(want: Any, got: Any) -> list[tuple[str, Any, Any]]:
    """(path, expected leaf, actual leaf) in `_entrywise`'s order."""
    return list(all_leaves(want, got))


def _numbers_anywhere(value: Any) -> bool:
    """`value` holds some float number (finite or not)."""
    return any(v.size for _, v, _ in _numbers(value))


def _numbers(value: Any):
    for path, v, _ in leaves(value, value):
        n = numeric(v)
        if n is not None and n.dtype.kind in "fc":
            yield path, n, None


# ---------------------------------------------------------------- one explanation

def _single(table: _Table, models: Sequence[Model], failing: Sequence[Test]) -> dict[int, tuple[Named, ...]] | None:
    fits = [m for m in models if table.explains_alone(m, failing)]
    if len({m.said for m in fits}) > 1:
        aimed = [m for m in fits if m.aimed]
        fits = aimed if len({m.said for m in aimed}) == 1 else _exact(table, fits, failing)
    if not fits or len({m.said for m in fits}) != 1:
        return None
    model = fits[0]
    return {t.index: _shown(table, model, t) for t in failing if table.matches[(model.key, t.index)]}


def _shown(table: _Table, model: Model, test: Test) -> tuple[Named, ...]:
    """What a model names on a test: itself, or those of its parts whose slip shows there (each alone
    leaves this test's value wrong; both, when that is not known)."""
    if not model.parts:
        return (model.named,)
    shows = [p.named for p in model.parts if table.right.get((p.key, test.index)) is not True]
    return tuple(shows) or tuple(p.named for p in model.parts)


def _exact(table: _Table, fits: Sequence[Model], failing: Sequence[Test]) -> list[Model]:
    """Of models that coincide within tolerance, the ones that return the very types the learner did
    (a numpy integer rather than a float) on every failing test, when they agree."""
    exact = [m for m in fits if all(kinds(table.outputs[(m.key, t.index)].value) == kinds(t.actual.value)
                                    for t in failing if table.matches[(m.key, t.index)])]
    return exact if len({m.said for m in exact}) == 1 else []


def _loose_kinds(value: Any) -> Any:
    """`kinds`, with an array's float dtype said as a float of any precision: a model computed in float64 is
    the same mistake as the learner's in float32."""
    if isinstance(value, dict):
        return {k: _loose_kinds(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_loose_kinds(v) for v in value]
    if isinstance(value, Array):
        return ("array", value.library, value.data.dtype.kind, value.data.ndim)
    return type(value).__name__


def kinds(value: Any) -> Any:
    """The types of a plain value's leaves: a Python int, a float, an array of one dtype, nested alike."""
    if isinstance(value, dict):
        return {k: kinds(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [kinds(v) for v in value]
    if isinstance(value, Array):
        return ("array", value.library, value.dtype, value.data.ndim)
    return type(value).__name__


def _relation(failing: Sequence[Test]) -> dict[int, tuple[Named, ...]] | None:
    """One relation to the expected value (judge.judging.diagnose) that holds on the failing tests alike.

    A relation is a fact about one test's output, proven there; it names the mistake only when it holds,
    in the same words, on every failing test that was searched (an output too large to search says
    nothing; a searched one with no relation, or another, contradicts it): "times 2" on the one test
    where the rows number 2 is a coincidence, not the mistake. Of the relations that hold, the most
    specific (a transpose is a rearrangement too), in the most specific words true on every test."""
    found = []
    for t in failing:
        made = relations(t.case, t.expected.value, t.actual.value)
        found.append(None if made is None else {d.name: d for d in made})
    named = _held([f for f in found if f is not None], len(failing))
    if named is None:
        return _key_relation(failing)
    name, claim = named
    return {t.index: (Named(name, claim, False),) for t, f in zip(failing, found) if f and name in f}


MOSTLY = 2 / 3   # of the searched failing tests, those a relation must hold on where others show none


SEARCHED = frozenset({"permuted", "rearranged", "extra_or_missing", "transposed"})   # found by a search that can
# miss (near-duplicate slices, candidates looked at a few at a time): a test where it finds nothing is no evidence


def _held(seen: Sequence[dict[str, Diagnosis]], failing: int) -> tuple[str, str] | None:
    """The relation (name, words) that holds on the searched tests `seen`: in the same words on two or more of
    them (the one there is, when only one test fails) and on every one; a test that shows another relation, or
    none, contradicts it, except that a moved-values relation (SEARCHED) may be missed by its search on a few
    of them (at most a third). "Times 2" on the one test of two rows is not named."""
    shown = [f for f in seen if f]
    if not shown or len(shown) < min(2, failing):
        return None
    for name in dict.fromkeys(name for f in shown for name in f):
        if not all(name in f for f in shown):
            continue
        if len(shown) < (MOSTLY if name in SEARCHED else 1.0) * len(seen):
            continue
        claim = common_claim([f[name] for f in shown])
        if claim is not None:
            return name, claim
    return None


def _key_relation(failing: Sequence[Test]) -> dict[int, tuple[Named, ...]] | None:
    """A relation of one key of a dict output, in the same words on every failing test where that key is wrong
    (two or more, or the one there is), where the output as a whole has none: the similarities divided by 100
    on every test, beside a loss made from them that is wrong in no simple way. The key the relation covers
    the most failing tests of is named, on those tests."""
    first = failing[0].expected.value
    best: tuple[int, dict[int, tuple[Named, ...]]] | None = None
    for key in first if isinstance(first, dict) else ():
        found = {}
        for test in failing:
            want, got = test.expected.value, test.actual.value
            if not (isinstance(want, dict) and isinstance(got, dict) and key in want and key in got) \
                    or same_value(test.case, want[key], got[key]):
                continue
            made = relations(test.case, {key: want[key]}, {key: got[key]})
            if made is not None:
                found[test.index] = {d.name: d for d in made}
        named = _held(list(found.values()), len(failing))
        if named is None or named[1].endswith(OBSERVED):
            continue
        shown = {i: (Named(named[0], named[1], False),) for i, f in found.items() if named[0] in f}
        if best is None or len(shown) > best[0]:
            best = (len(shown), shown)
    return best[1] if best is not None else None


OBSERVED = (ANOTHER_ORDER, MOVED, SCALED)   # words that say what is seen, not how it came about
MOVED_ONLY = (ANOTHER_ORDER, MOVED)          # ... of which these say nothing between a trap and the learner: a
# rearranged trap's output rearranged again is nearly anything wrong (a constant factor is a fact there)


def common_claim(diagnoses: Sequence[Diagnosis]) -> str | None:
    """The most specific words of the first diagnosis that every other one says too; None when none is shared."""
    return next((c for c in diagnoses[0].said if all(c in d.said for d in diagnoses[1:])), None)


def _with_relation(table: _Table, traps: Sequence[Model], failing: Sequence[Test]) -> dict[int, tuple[Named, ...]] | None:
    """A trap and a relation: on every failing test the learner's value is the trap's output, or relates to it
    in one way said alike on every such test (the trap's mistake, then a factor, a row moved), and the trap's
    output is not the expected one somewhere. Where another trap relates to the expected value in that same
    way on those tests (a sum for a mean is "times the number of rows" there too), and gives the learner's
    value where the first is right, the two traps are named: two known mistakes, each in its author's words."""
    found = _TrapRelations(table, failing)
    composed: list[dict[int, tuple[Named, ...]]] = []
    fits: list[tuple[Model, dict[int, Diagnosis | None]]] = []
    usable = [t for t in traps if table.leaves_passed_right(t)]
    for trap in usable:
        if not any(table.right[(trap.key, t.index)] is False for t in failing):
            continue
        for other in usable:
            if other.key != trap.key and other.named.message != trap.named.message:
                named = found.composed(trap, other)
                if named is not None:
                    composed.append(named)
        fit = found.related(trap, [t for t in failing if not found.alone(trap, t)])
        if fit is not None:
            fits.append((trap, fit))
    if composed:
        return composed[0] if len({_said(n) for n in composed}) == 1 else None
    if len({(trap.named.message, _said(_related(trap, fit))) for trap, fit in fits}) != 1:
        return None
    return _related(*fits[0])


RELATED_ELEMENTS = 200_000   # outputs larger than this are not searched for a trap's relation (cost)


def _count(value: Any) -> int:
    """How many numbers `value` holds."""
    return sum(v.size for _, v, _ in _numbers(value))


class _TrapRelations:
    """How the learner's value relates to each trap's output, and each trap's output to the expected value,
    test by test, in words that say how (judge.judging.diagnose); each looked for once."""

    def __init__(self, table: _Table, failing: Sequence[Test]):
        self.table, self.failing = table, failing
        self.kept: dict[tuple, dict[str, Diagnosis] | None] = {}
        self.fits: dict[tuple, dict[int, Diagnosis | None] | None] = {}

    def alone(self, trap: Model, test: Test) -> bool:
        key = (trap.key, test.index)
        return bool(self.table.matches[key]) and not self.table.absorbs[key]

    def _found(self, trap: Model, test: Test, own: bool) -> dict[str, Diagnosis] | None:
        """The relations of the learner's value to the trap's output (`own`: of the trap's output to the
        expected value), keeping only words that say how ({} where there are none); None where the values
        cannot tell (too large to search, or the same values where repeated ones leave the order undecided)."""
        kept = (trap.key, test.index, own)
        if kept not in self.kept:
            made = self.table.outputs.get((trap.key, test.index))
            found: dict[str, Diagnosis] | None = {}
            if made is not None and made.error is None and _count(made.value) > RELATED_ELEMENTS:
                found = None   # not searched (cost): the smaller tests decide
            elif made is not None and made.error is None:
                pair = (test.expected.value, made.value) if own else (made.value, test.actual.value)
                ds = relations(test.case, *pair, reference=own)
                # A rearrangement of a trap's rearranged output, or a trap's output scaled by some factor, is
                # true of nearly anything wrong and names nothing.
                found = None if ds is None else {d.name: replace(d, claims=c) for d in ds
                                                 if (c := tuple(x for x in d.said if not x.endswith(MOVED_ONLY)))}
            self.kept[kept] = found
        return self.kept[kept]

    def related(self, trap: Model, tests: Sequence[Test]) -> dict[int, Diagnosis | None] | None:
        """Per failing test: None where the trap alone gives the learner's value (or the values cannot tell),
        else the one relation (one name, words true on each) of the learner's value to the trap's output; None
        when there is none, or no test shows one."""
        kept = (trap.key, tuple(t.index for t in tests))
        if kept not in self.fits:
            self.fits[kept] = self._related(trap, tests)
        return self.fits[kept]

    def _related(self, trap: Model, tests: Sequence[Test]) -> dict[int, Diagnosis | None] | None:
        found: dict[int, dict[str, Diagnosis]] = {}
        for test in sorted(tests, key=lambda t: (_size(t.case), t.index)):   # the cheap tests decide first
            made = self._found(trap, test, own=False)
            if made is not None and not made:
                return None
            if made is not None:
                found[test.index] = made
        if not found or len(found) < min(2, len(tests)):
            return None   # a relation decided on one test of several is a coincidence as often as not
        for name in dict.fromkeys(n for f in found.values() for n in f):
            if all(name in f for f in found.values()):
                claim = common_claim([f[name] for f in found.values()])
                if claim is not None:
                    return {t.index: Diagnosis(name, claim) if t.index in found else None for t in self.failing}
        return None

    def composed(self, trap: Model, other: Model) -> dict[int, tuple[Named, ...]] | None:
        """`trap` and `other` together: on each failing test one of them gives the learner's value where the
        other is right, or the learner's value relates to `trap`'s output as `other`'s relates to the expected
        value (in the same words on all such tests)."""
        table, both = self.table, []
        for test in self.failing:
            if self.alone(trap, test) and table.right[(other.key, test.index)] is True:
                continue
            if self.alone(other, test) and table.right[(trap.key, test.index)] is True:
                continue
            both.append(test)
        if not both:
            return None
        fit = self.related(trap, both)
        if fit is None:
            return None
        for test in both:
            own = self._found(other, test, own=True)
            relation = fit[test.index]
            if relation is None:
                if own is not None:
                    return None   # the learner's value relates to `trap`'s in no way the values can decide
                continue          # neither relation can be decided here: no evidence either way
            if own is None or (not own and table.right[(other.key, test.index)] is True):
                continue          # how `other` departs from the expected value cannot be seen here (a sum for a
                # mean of a loss of 0 is 0 too)
            if relation.name not in own or relation.message not in own[relation.name].said:
                return None
        named = {t.index: tuple(m.named for m in (trap, other) if table.right[(m.key, t.index)] is not True)
                 for t in self.failing}
        if {n.message for shown in named.values() for n in shown} != {trap.named.message, other.named.message}:
            return None
        return named


def _related(trap: Model, fit: dict[int, Diagnosis | None]) -> dict[int, tuple[Named, ...]]:
    """The trap and, where it shows, the relation of the learner's value to the trap's output."""
    said = lambda d: Named(d.name, d.message.replace("expected", "known mistake's", 1), False)  # noqa: E731
    return {i: (trap.named,) + ((said(d),) if d is not None else ()) for i, d in fit.items()}


def _said(named: dict[int, tuple[Named, ...]]) -> frozenset[str]:
    return frozenset(n.message for shown in named.values() for n in shown)


# ---------------------------------------------------------------- slips

def _first_tests(table: _Table, traps: Sequence[Model], failing: Sequence[Test]) -> list[Test]:
    """The tests every slip model runs on: the smallest failing test, and the smallest failing test each
    trap with a match leaves right (where a second mistake shows alone)."""
    first = [min(failing, key=lambda t: (_size(t.case), t.index))]
    for trap in traps:
        if any(table.matches[(trap.key, t.index)] for t in failing):
            clean = [t for t in failing if table.right[(trap.key, t.index)] is True]
            if clean:
                first.append(min(clean, key=lambda t: (_size(t.case), t.index)))
    return list({t.index: t for t in first}.values())


def _slip_candidates(table: _Table, slips: Sequence[Model], first: Sequence[Test],
                     seen: dict[tuple[str, int], Observation | None], predict: Predictions) -> list[Model]:
    """The slip models worth checking on every test: those that give the learner's output on a first test."""
    candidates = []
    for slip in slips:
        for test in first:
            made = seen.get((slip.key, test.index))
            if made is not None and made.error is None and _same_numbers(test.case, made.value, test.actual.value):
                candidates.append(slip)
                break
    candidates = candidates[:CANDIDATE_SLIPS]
    table.add(candidates, predict(candidates, list(table.tests.values())))
    return candidates


def _size(case: Case) -> int:
    return sum(v.data.size for v in case.args if isinstance(v, Array))


# ---------------------------------------------------------------- two mistakes

def _likely_pairs(slips: Sequence[Model], first: Sequence[Test],
                  seen: dict[tuple[str, int], Observation | None]) -> list[tuple[Model, Model]]:
    """The pairs of slips most likely to give the learner's outputs together, best first.

    Two slips that both show on every test leave no test where one is seen alone, so pairs are
    ranked by how nearly their effects compose to the learner's output on the first tests: added
    (each shifts the value) or multiplied (each scales it: a sum for a mean, a dropped divisor),
    the best of each way in turn. A ranking only: a pair is named when the model with both slips
    gives the learner's outputs on every test (judge.judging.slips)."""
    goal = [_flat(t.actual.value, t.expected.value) for t in first]
    if any(g is None for g in goal):
        return []
    rows = []
    for slip in slips:
        made = [seen.get((slip.key, t.index)) for t in first]
        flat = [_flat(m.value, t.expected.value) if m is not None and m.error is None else None
                for m, t in zip(made, first)]
        if all(f is not None and len(f[0]) == len(g[0]) for f, g in zip(flat, goal)):
            rows.append((slip, np.concatenate([f[0] for f in flat])))
    if len(rows) < 2:
        return []
    expected = np.concatenate([g[1] for g in goal])
    target = np.concatenate([g[0] for g in goal])
    values = np.stack([v for _, v in rows])
    groups = np.array([slip.group for slip, _ in rows])
    sketch = _Sketch(len(target))
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        nonzero = expected != 0
        ways = [(sketch(target - expected), np.stack([sketch(v - expected) for v in values])),
                (sketch(np.where(nonzero, np.log(np.abs(target)) - np.log(np.abs(expected)), 0)),
                 np.stack([sketch(np.where(nonzero, np.log(np.abs(v)) - np.log(np.abs(expected)), 0)) for v in values]))]
    rankings = [_ranked(goal_way, effects, groups) for goal_way, effects in ways]
    pairs: list[tuple[int, int]] = []
    for k in range(JOINED):
        for ranking in rankings:
            if k < len(ranking) and ranking[k] not in pairs:
                pairs.append(ranking[k])
    return [(rows[i][0], rows[j][0]) for i, j in pairs[:JOINED]]


def _ranked(goal: np.ndarray, effects: np.ndarray, groups: np.ndarray) -> list[tuple[int, int]]:
    """Pairs (i, j) of rows of one group, ordered by |effects[i] + effects[j] - goal|."""
    usable = np.isfinite(effects).all(axis=1)
    if not np.isfinite(goal).all() or not np.any(goal) or usable.sum() < 2:
        return []
    # |a + b - goal|^2 for every pair at once: with u = effect - goal / 2, it is |u_a|^2 + |u_b|^2 + 2 u_a.u_b.
    u = np.where(usable[:, None], effects, 0) - goal / 2
    norms = np.einsum("ij,ij->i", u, u)
    with np.errstate(over="ignore", invalid="ignore"):
        misses = norms[:, None] + norms[None, :] + 2 * (u @ u.T)
    misses[~usable, :] = misses[:, ~usable] = np.inf
    misses[groups[:, None] != groups[None, :]] = np.inf   # only slips of one solution can be joined
    misses[np.tril_indices(len(effects))] = np.inf
    order = np.argsort(misses, axis=None)[:JOINED]
    return [(i, j) for i, j in (divmod(int(k), len(effects)) for k in order) if np.isfinite(misses[i, j])]


class _Sketch:
    """A fixed count-sketch of long vectors to PROJECTED numbers: entries summed into buckets with random
    signs, so sums and distances are kept on average and a large output costs a pass, not a matrix."""

    def __init__(self, length: int):
        self.length = length
        if length > PROJECTED:
            rng = np.random.default_rng(0)
            buckets = rng.permutation(np.arange(length) % PROJECTED)
            self.order = np.argsort(buckets, kind="stable")
            self.starts = np.searchsorted(buckets[self.order], np.arange(PROJECTED))
            self.signs = rng.choice((-1.0, 1.0), length)[self.order]

    def __call__(self, v: np.ndarray) -> np.ndarray:
        if self.length <= PROJECTED:
            return v
        return np.add.reduceat(v[self.order] * self.signs, self.starts)


def _progress(first: Sequence[Test], made: Sequence[Observation]) -> tuple[float, ...] | None:
    """How far the values `made` on the first tests are from the expected ones, by four measures (lower is
    nearer): the distance; the numbers not right; the distance left after the best single factor (a value
    off by a factor only is near); and the form: leaves of another shape (and how far their sizes are),
    type or dtype. None where nothing can be measured (the expected values hold no numbers)."""
    distance = wrong = unscaled = form = 0.0
    for test, observation in zip(first, made):
        goal = _flat(test.expected.value, test.expected.value)
        gap = _form_gap(observation.value, test.expected.value)
        if goal is None or gap is None:
            return None
        form += gap
        flat = _flat(observation.value, test.expected.value)
        if flat is None or len(flat[0]) != len(goal[1]):
            distance = wrong = unscaled = np.inf
            continue
        got, want = flat
        with np.errstate(over="ignore", invalid="ignore"):
            scale = float(np.max(np.abs(want))) if want.size else 0.0
            distance += float(np.linalg.norm(got - want))
            wrong += float(np.count_nonzero(~np.isclose(got, want, rtol=1e-4, atol=1e-6 * scale)))
            norm = float(got @ got)
            factor = float(got @ want) / norm if norm > 0 else 0.0
            unscaled += float(np.linalg.norm(factor * got - want))
    return distance, wrong, unscaled, form


def _form_gap(value: Any, expected: Any) -> float | None:
    """How far `value`'s form is from `expected`'s: per numeric leaf, 1 for another type or dtype, and 1 for
    another shape plus how far its size is (|log size ratio|); None where the two differ in keys or items."""
    gap = 0.0
    for _, v, e in all_leaves(value, expected):
        if v is MISSING or e is MISSING:
            return None
        a, b = numeric(v), numeric(e)
        if a is None or b is None:
            continue
        if type(v) is not type(e) or (isinstance(v, Array) and (v.dtype, v.scalar) != (e.dtype, e.scalar)):
            gap += 1.0
        if a.shape != b.shape:
            gap += 1.0 + abs(float(np.log((a.size + 1) / (b.size + 1))))
    return gap


def _flat(value: Any, expected: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """Every number of `value` and of `expected`, flattened alike; None when their shapes differ."""
    values, wanted = [], []
    for _, v, e in leaves(value, expected):
        a, b = numeric(v), numeric(e)
        if a is None or b is None:
            continue
        if a.shape != b.shape:
            return None
        values.append(a.astype(np.float64).reshape(-1))
        wanted.append(b.astype(np.float64).reshape(-1))
    return (np.concatenate(values), np.concatenate(wanted)) if values else None


def _pair(table: _Table, models: Sequence[Model], failing: Sequence[Test]) -> dict[int, tuple[Named, ...]] | None:
    useful = [m for m in models if table.leaves_passed_right(m)
              and any(table.matches[(m.key, t.index)] for t in failing)]
    fits: dict[frozenset[str], dict[int, tuple[Named, ...]]] = {}
    for i, a in enumerate(useful):
        for b in useful[i + 1:]:
            if a.named.message == b.named.message:
                continue
            named = _together(table, a, b, failing)
            if named is not None:
                fits.setdefault(frozenset((a.named.message, b.named.message)), named)
    return _one_fit(fits, models)


def _one_fit(fits: dict[frozenset[str], dict[int, tuple[Named, ...]]],
             models: Sequence[Model]) -> dict[int, tuple[Named, ...]] | None:
    """The one explanation of several that fit: the only one, else the only one made of the problem's own known
    mistakes (a slip that gives what a trap gives is the trap's mistake in other words); None when they differ."""
    if len(fits) > 1:
        known = {m.named.message for m in models if m.named.known}
        fits = {words: named for words, named in fits.items() if words <= known}
    return next(iter(fits.values())) if len(fits) == 1 else None


def _together(table: _Table, a: Model, b: Model, failing: Sequence[Test]) -> dict[int, tuple[Named, ...]] | None:
    named: dict[int, tuple[Named, ...]] = {}
    for test in failing:
        shown = []
        for this, other in ((a, b), (b, a)):
            key, other_key = (this.key, test.index), (other.key, test.index)
            if table.matches[key] and (table.right[other_key] is True or table.absorbs[key]):
                shown.append(this)
        if not shown:
            return None
        named[test.index] = (shown[0].named,)
    if {n[0].message for n in named.values()} != {a.named.message, b.named.message}:
        return None  # one of them explains every test alone (or nothing of it shows): not two mistakes
    return named


# ---------------------------------------------------------------- two mistakes, side by side

def _superposed(table: _Table, models: Sequence[Model], failing: Sequence[Test]) -> dict[int, tuple[Named, ...]] | None:
    """Two mistakes that show side by side: on each failing test, the learner's value is one model's where
    only that model departs from the expected value (entry by entry: a number, a key, a type), and the
    expected value where neither does; where both depart from the same numbers, it may be anything (no model
    of both is made, so that part is not proven). Each model must be proven somewhere it shows alone: a
    whole test, or the entries only it changes. Both leave every passed test right. Named only when one
    such pair fits: the key (`tokens`) one trap is about and the key (`coordinates`) another is about, a
    bias left out seen on the token the reordering leaves in place."""
    # Each model's proof is looked for pair by pair (a test it gives alone, or entries only it changes).
    useful = [m for m in models if table.leaves_passed_right(m)
              and any(table.right[(m.key, t.index)] is False for t in failing)]
    if len(useful) < 2:
        return None
    views = _Views(table)
    fits: dict[frozenset[str], dict[int, tuple[Named, ...]]] = {}
    loose: dict[frozenset[str], int] = {}
    for i, a in enumerate(useful):
        for b in useful[i + 1:]:
            if a.named.message == b.named.message:
                continue
            found = _side_by_side(table, views, a, b, failing)
            if found is not None:
                words = frozenset((a.named.message, b.named.message))
                fits.setdefault(words, found[0])
                loose[words] = found[1]
    if len(fits) > 1:
        # Of pairs that fit, the one that accounts for the most of the learner's values exactly (the tokens by
        # one model, the coordinates by the other), when one does: a pair leaving leaves unexplained on some
        # tests fits by the leniency that keys made from other keys need, not by their values.
        least = min(loose.values())
        if sum(n == least for n in loose.values()) == 1:
            fits = {w: f for w, f in fits.items() if loose[w] == least}
    if len(fits) > 1:
        # A pair the failing tests were written against (their `hint_when` names both) is the one meant.
        aimed = {k: v for k, v in fits.items() if all(any(m.aimed and m.named.message == w for m in useful) for w in k)}
        fits = aimed if len(aimed) == 1 else fits
    return _one_fit(fits, useful)


def _side_by_side(table: _Table, views: "_Views", a: Model, b: Model,
                  failing: Sequence[Test]) -> tuple[dict[int, tuple[Named, ...]], int] | None:
    """The names per failing test where `a` and `b` show side by side, and how many leaves of the tests are not
    exactly either's or the expected value (None where they do not fit)."""
    named: dict[int, tuple[Named, ...]] = {}
    loose = 0
    proven = {a.key: False, b.key: False}
    shared: dict[tuple[str, int], list[bool]] = {}   # per (model, leaf) both change: is the learner's leaf its?
    for test in failing:
        i = test.index
        alone = [m for m, other in ((a, b), (b, a)) if table.matches[(m.key, i)]
                 and (table.right[(other.key, i)] is True or table.absorbs[(m.key, i)])]
        if alone:
            model = alone[0]
            proven[model.key] = proven[model.key] or not table.absorbs[(model.key, i)] or model.aimed
            named[i] = (model.named,)
            continue
        if not _finite_anywhere(test.actual.value):
            return None   # an overflow no model of the two shows alone
        shows = views.superposed(test, a, b)
        if shows is None:
            return None
        for key in shows.alone:
            proven[key] = True
        for leaf, same in shows.leaves:
            shared.setdefault(leaf, []).append(same)
        loose += shows.loose
        named[i] = tuple(m.named for m in (a, b) if m.key in shows.present)
    # A leaf both models change proves the one whose leaf the learner's is, on every test it is changed by
    # both and on two or more: once is a coincidence small leaves of few values (a mask) allow.
    for (key, _), seen in shared.items():
        if len(seen) >= 2 and all(seen):
            proven[key] = True
    if not all(proven.values()):
        return None
    if {n.message for shown in named.values() for n in shown} != {a.named.message, b.named.message}:
        return None
    return named, loose


@dataclass(frozen=True)
class _Shows:
    """Which of two models show on a test (`present`), which of them on entries of their own (`alone`), and, for
    each leaf both change, whether the learner's leaf is each one's ((model key, leaf) -> bool)."""

    present: frozenset[str]
    alone: frozenset[str]
    leaves: tuple[tuple[tuple[str, int], bool], ...] = ()
    loose: int = 0   # leaves the learner's value is neither model's in, nor the expected one's


class _Views:
    """Entry-by-entry comparisons of models' outputs with the expected and the learner's values, made once."""

    def __init__(self, table: _Table):
        self.table = table
        self.kept: dict[tuple, np.ndarray | None] = {}

    def same(self, test: Test, key: str, of: str) -> np.ndarray | None:
        """Per number of the expected value: whether the model's output has it (`of` "expected") or the
        learner's has the model's (`of` "actual")."""
        kept = (key, test.index, of)
        if kept not in self.kept:
            made = self.table.outputs.get((key, test.index))
            if made is None or made.error is not None:
                self.kept[kept] = None
            elif of == "expected":
                self.kept[kept] = _entrywise(test.case, test.expected.value, made.value)
            else:
                self.kept[kept] = _entrywise(test.case, made.value, test.actual.value)
        return self.kept[kept]

    def superposed(self, test: Test, a: Model, b: Model) -> _Shows | None:
        """Leaf by leaf (a key, an item): where neither model departs from the expected value the learner's is
        expected; where one alone does and the learner's is that one's, that one shows there on its own; else
        both may show (a key made from another, probabilities from logits, carries both models' changes).
        Inside a leaf both change, the entries only one changes prove it where they hold as they must (where
        they do not, the leaf's entries are coupled, as a softmax couples them, and say nothing). None where
        that does not hold or cannot be looked at."""
        right_a, right_b = self.same(test, a.key, "expected"), self.same(test, b.key, "expected")
        got_a, got_b = self.same(test, a.key, "actual"), self.same(test, b.key, "actual")
        right = _entrywise(test.case, test.expected.value, test.actual.value)
        if any(x is None for x in (right_a, right_b, got_a, got_b, right)) \
                or len({len(x) for x in (right_a, right_b, got_a, got_b, right)}) != 1:
            return None
        form = self._form(test, a, b)
        if form is None:
            return None
        present, alone = set(form.present), set(form.alone)
        leaves: list[tuple[tuple[str, int], bool]] = []
        loose = 0
        for k, (ra, rb, ga, gb, r) in enumerate(zip(right_a, right_b, got_a, got_b, right)):
            if ra.all() and rb.all():
                if not r.all():
                    return None
            elif rb.all() and ga.all():
                present.add(a.key)
                alone.add(a.key)
            elif ra.all() and gb.all():
                present.add(b.key)
                alone.add(b.key)
            elif ra.all() or rb.all():
                # Only one model departs here and the learner's value is not that one's: a key made from
                # another (probabilities from logits) carries the other model's change too. Both may show.
                present.update((a.key, b.key))
                loose += 1
            else:
                # A leaf both change: the learner's may be one model's (a mask both a shuffled order and wrong
                # indices would change, as the order does), said per leaf and weighed over the tests.
                present.update((a.key, b.key))
                leaves += [((a.key, k), bool(ga.all())), ((b.key, k), bool(gb.all()))]
                entries = _entries_alone(a.key, b.key, ra, rb, ga, gb, r)
                if entries is None and len(right) == 1:
                    return None   # an entry only one model changes is not that one's: not these two mistakes
                # (in an output of several keys one is often made from another, probabilities from logits, and
                # its entries carry both changes: there it proves nothing, and contradicts nothing)
                alone.update(entries or ())
                loose += not (ga.all() or gb.all())
        if not present:
            return None
        return _Shows(frozenset(present), frozenset(alone), tuple(leaves), loose)

    def _form(self, test: Test, a: Model, b: Model) -> _Shows | None:
        """The types of the learner's leaves: the expected ones, or those of the one model that returns other
        types (numpy integers for Python ints: a mistake of types beside a mistake of values)."""
        want, got = _loose_kinds(test.expected.value), _loose_kinds(test.actual.value)
        made = {m.key: _loose_kinds(self.table.outputs[(m.key, test.index)].value) for m in (a, b)}
        other = [k for k, v in made.items() if v != want]
        if not other:
            return _Shows(frozenset(), frozenset()) if got == want else None
        if len(other) == 1 and got == made[other[0]]:
            return _Shows(frozenset(other), frozenset(other))
        return None


def _entries_alone(a: str, b: str, ra: np.ndarray, rb: np.ndarray, ga: np.ndarray, gb: np.ndarray,
                   r: np.ndarray) -> set[str] | None:
    """In a leaf both models change, entry by entry: the models proven by the entries only one of them changes
    (the learner's entry is that one's); None where an entry neither or one changes is not as it must be."""
    only_a, only_b, neither = ~ra & rb, ra & ~rb, ra & rb
    if not (r[neither].all() and ga[only_a].all() and gb[only_b].all()):
        return None
    return {k for k, region in ((a, only_a), (b, only_b)) if region.any()}


def _entrywise(case: Case, want: Any, got: Any) -> list[np.ndarray] | None:
    """Per leaf of `want`, per number: whether `got` has it, within the test's tolerance for its key; a leaf
    that is no number counts as one entry. None where the two differ in keys, items or shapes (entries cannot
    be set side by side)."""
    found = []
    for path, e, a in all_leaves(want, got):
        if e is MISSING or a is MISSING:
            return None
        ev, av = numeric(e), numeric(a)
        if ev is None or av is None:
            if (ev is None) != (av is None):
                return None
            found.append(np.array([_plain_equal(e, a)]))
            continue
        if ev.shape != av.shape:
            return None
        tol = case.tolerance.for_key(top_key(path)) if isinstance(case.tolerance, Tolerance) else Tolerance()
        found.append(within(ev, av, tol.rtol, tol.atol).reshape(-1))
    return found or None


def _plain_equal(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except (TypeError, ValueError):
        return False
