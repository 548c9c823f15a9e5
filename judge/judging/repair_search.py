"""The repair search: changes of the learner's own file (judge.judging.repairs) that make every value right,
one or two at a time, or that leave what one trap or slip gives (two mistakes, one undone by the change).

A change is run on the first tests, and on every test only when it is hopeful there; how explain reaches
the repairs (`Repairs`) is given by judge.judging.suspects.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from judge.judging.equality import rounding_apart, same_numbers, same_value, value_of
from judge.judging.evidence import Explanation, Model, Named, Outputs, Predictions, Table, Test
from judge.judging.ranking import CANDIDATE_SLIPS, Sketch, case_size, flat_numbers, progress

NEAREST = 3            # repairs of the learner's file tried with every other change (two slips), per measure
JOINED_REPAIRS = 1200  # files with two changes run on the first test, at most (each a sandbox call)
MENDED = 8             # changes of the learner's file run on every test beside a trap or slip, at most


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


def count_unsaid(model: Model) -> int:
    """How many of a two-change repair's changes are said only as code (no slip words)."""
    return sum(p.named.name == "repair_unsaid" for p in model.parts)


class RepairSearch:
    """Repairs of the learner's file: the changes that make every value right, one or two at a time."""

    def __init__(self, table: Table, tests: Sequence[Test], failing: Sequence[Test], first: Sequence[Test],
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

    def one(self) -> Explanation | None:
        """One change that makes every value right: the first in the file (said in slip words where they can)."""
        fixes = self._fixing(self.every)
        if not fixes:
            return None
        fix = min(fixes, key=lambda m: (m.named.name.startswith("repair_unsaid"), self.every.index(m)))
        return {t.index: (fix.named,) for t in self.failing}

    def two(self) -> Explanation | None:
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
                if best is None or count_unsaid(fix) < count_unsaid(best):
                    best = fix
            if (best is not None and not count_unsaid(best)) or budget <= 0:
                break
        if best is None:
            return None
        return {t.index: tuple(p.named for p in best.parts) for t in self.failing}

    def with_model(self, models: Sequence[Model], seen: Outputs
                   ) -> Explanation | None:
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
        wrong_there = [(m, v) for m in models if (v := value_of(outputs.get((m.key, first.index)))) is not None
                       and not same_value(first.case, first.expected.value, v)]
        candidates = self._pair_repairs_with(first, wrong_there, said)
        for test, there in [*self._tests_models_depart(models, outputs), *self._tests_known_depart(models, first)]:
            self.seen.update(self.predict([r for r in said if (r.key, test.index) not in self.seen], [test]))
            candidates += self._pair_repairs_with(test, there, said)
        repairs = list({r.key: r for r, _ in candidates})[:MENDED]   # each repair is run on every test
        candidates = [pair for pair in dict.fromkeys(candidates) if pair[0].key in repairs]
        if not candidates:
            return None
        needed = list({m.key: m for pair in candidates for m in pair}.values())
        self.table.add(needed, self.predict(needed, self.tests))
        fits: dict[frozenset[str], tuple[Model, Explanation]] = {}
        for repair, model in candidates:
            named = self._name_with_model(repair, model)
            if named is not None:
                # Two changes of one line said in the same words (`dim=1`, `dim=-1`) are one explanation.
                words = frozenset(n.name if n.name.startswith("repair_") and n.name != "repair_unsaid" else n.message
                                  for shown in named.values() for n in shown)
                fits.setdefault(words | {f"line {self.repairs.line(repair)}"}, (model, named))
        if len(fits) > 1:
            # A trap and a slip that give the same values are one mistake: the author's words for it are kept.
            fits = {words: fit for words, fit in fits.items() if fit[0].named.known}
        return next(iter(fits.values()))[1] if len(fits) == 1 else None

    def _tests_known_depart(self, models: Sequence[Model], first: Test) -> list[tuple[Test, list[tuple[Model, Any]]]]:
        """For the known mistakes right on the first test (the one the learner's other mistake alone makes
        wrong there: a bias added in the wrong place, on a test with no bias), the smallest failing test where
        each departs from the expected value, with its output there."""
        found: dict[int, tuple[Test, list[tuple[Model, Any]]]] = {}
        for model in models:
            if not model.named.known or self.table.right.get((model.key, first.index)) is not True:
                continue
            apart = [t for t in self.failing if self.table.right.get((model.key, t.index)) is False]
            if apart:
                test = min(apart, key=lambda t: (case_size(t.case), t.index))
                found.setdefault(test.index, (test, []))[1].append(
                    (model, self.table.outputs[(model.key, test.index)].value))
        return list(found.values())

    def _tests_models_depart(self, models: Sequence[Model], outputs: Outputs
                             ) -> list[tuple[Test, list[tuple[Model, Any]]]]:
        """Per failing test, the models that give the learner's value on a first test and another value there
        (the smallest such test of each; at most CANDIDATE_SLIPS models, run on every test)."""
        matching = [m for m in models if any(
            (v := value_of(outputs.get((m.key, t.index)))) is not None and same_numbers(t.case, v, t.actual.value)
            for t in self.first)][:CANDIDATE_SLIPS]
        self.table.add(matching, self.predict(matching, self.tests))
        found: dict[int, tuple[Test, list[tuple[Model, Any]]]] = {}
        for model in matching:
            apart = [t for t in self.failing if self.table.matches[(model.key, t.index)] is False]
            if apart:
                test = min(apart, key=lambda t: (case_size(t.case), t.index))
                found.setdefault(test.index, (test, []))[1].append(
                    (model, self.table.outputs[(model.key, test.index)].value))
        return list(found.values())

    def _pair_repairs_with(self, test: Test, models: Sequence[tuple[Model, Any]],
                           said: Sequence[Model]) -> list[tuple[Model, Model]]:
        """(repair, model) pairs whose outputs agree on `test` (`models`: each with its output there, None
        where it has none), where the repair changes the learner's value, in the order of the file. Only
        changes said in slip words (`said`) undo a slip: one said only as code may as well make one (drop a
        normalisation the file rightly has) and land on another solution's slip."""
        given = [(m, v) for m, v in models if v is not None]
        changed = [(r, v) for r in said if (v := value_of(self.seen.get((r.key, test.index)))) is not None
                   and not same_value(test.case, v, test.actual.value)]
        if not given or not changed:
            return []
        flat = {id(v): f for _, v in given + changed if (f := flat_numbers(v, test.expected.value)) is not None}
        width = {len(f[0]) for f in flat.values()}
        if not flat or len(width) != 1:
            return []
        sketch = Sketch(width.pop())
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
                if same_value(test.case, want, made) or (not model.exact and rounding_apart(want, made)):
                    pairs.append((repair, model))
        return pairs

    def _name_with_model(self, repair: Model, model: Model) -> Explanation | None:
        """The names on each failing test where `repair` of the learner's file gives `model`'s output on every
        one; None where it does not, or either is not needed."""
        table, named, shows = self.table, {}, set()
        for test in self.failing:
            made, want = table.outputs.get((repair.key, test.index)), table.outputs.get((model.key, test.index))
            if made is None or want is None or made.error is not None or want.error is not None:
                return None
            if not (same_value(test.case, want.value, made.value)
                    or (not model.exact and rounding_apart(want.value, made.value))):
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
        start = progress(self.first, [t.actual for t in self.first])
        if start is None:
            return []
        scored: list[list[tuple[float, int, Model]]] = [[] for _ in start]
        for k, model in enumerate(self.every):
            made = [self.seen.get((model.key, t.index)) for t in self.first]
            if any(m is None or m.error is not None for m in made):
                continue
            now = progress(self.first, made)
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
