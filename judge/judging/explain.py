"""Explaining a wrong answer: the rules that say when a mistake is proven, over all the failing tests at once.

The candidates are models (the problem's traps, slip models of a trusted solution, repairs of the
learner's own file) and relations of the learner's value to the expected one or to a trap's
(judge.judging.diagnose). One is named only when it is proven: a model gives the learner's output on
every failing value test where it can tell, and the expected output on every passed one; a relation
holds in the same words on two or more of the searched failing tests and is contradicted by none; a
trap and a relation, or two models (one where the other leaves the expected value, or side by side:
judge.judging.side_by_side), fit every failing test together. When different explanations fit, none is
named, unless the tests were written against one or one is made of the problem's own traps alone: a
wrong name is worse than none. The evidence is weighed in judge.judging.evidence; what is tried first
is ranked by judge.judging.ranking; repairs are searched by judge.judging.repair_search.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence

from judge.judging.diagnose import ANOTHER_ORDER, MOVED, SCALED, Diagnosis, relations
from judge.judging.equality import count_numbers, kinds, same_value
from judge.judging.evidence import Explanation, Model, Named, Outputs, Predictions, Joins, Table, Test, only_fit
from judge.judging.ranking import case_size, first_tests, likely_pairs, slip_candidates
from judge.judging.repair_search import RepairSearch, Repairs
from judge.judging.side_by_side import find_side_by_side
from judge.judging.wording import name_relation, name_trap_relation


@dataclass(frozen=True)
class Slips:
    """How explain reaches the slip models (judge.judging.slips), whose runs cost a sandbox run each time:
    `models()` the one-slip models, `join(pairs)` the models with both slips of each pair (those that can
    be made)."""

    models: Callable[[], Sequence[Model]]
    join: Joins


def explain(tests: Sequence[Test], traps: Sequence[Model], predict: Predictions,
            slips: Slips | None = None, repairs: Repairs | None = None) -> Explanation:
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
    table = Table(tests)
    table.add(traps, predict(traps, tests))
    found = _find_single(table, traps, failing)
    if found is not None:
        return found
    relation = _find_relation(failing)
    smallest = [min(failing, key=lambda t: (case_size(t.case), t.index))]
    if relation is not None and len(relation) == len(failing):
        # The same relation shows on every failing test: a fact, named; where a change of the learner's own file
        # (or two) makes every value right, it says beside it where the difference comes from. Known mistakes
        # that give the same values, with a relation or side by side, say it in their authors' words instead.
        known = _find_trap_with_relation(table, traps, failing) or find_side_by_side(table, traps, failing)
        if known is not None:
            return known
        fixes = RepairSearch(table, tests, failing, smallest, predict, repairs) if repairs is not None else None
        found = (fixes.one() or fixes.two() or fixes.with_model(*_models_with_outputs(table, traps, failing, predict, slips))
                 ) if fixes else None
        return _put_relation_first(relation, found) if found else relation
    found = _find_trap_with_relation(table, traps, failing)
    if found is not None:
        return found
    fixes = RepairSearch(table, tests, failing, smallest, predict, repairs) if repairs is not None else None
    found = (fixes.one() if fixes else None) or _explain_by_slips(table, traps, tests, failing, predict, slips, fixes)
    if found is None:
        return relation or {}
    if relation is not None and len(relation) >= 2:
        # A relation seen on several tests, contradicted on none, is a fact of its own beside the mistake that
        # explains them all (a float32 table: its values are right to float32 precision where they are found).
        found = _put_relation_first(relation, found)
    return found


def _put_relation_first(relation: Explanation, found: Explanation) -> Explanation:
    """The relation's facts first, then the mistakes that explain them, test by test; a relation that only says
    what is seen ("the right values in another order") adds nothing beside the mistake that explains it."""
    if all(n.message.endswith(OBSERVED) for shown in relation.values() for n in shown):
        return found
    return {i: relation.get(i, ()) + found.get(i, ()) for i in {*found, *relation}}


def _explain_by_slips(table: Table, traps: Sequence[Model], tests: Sequence[Test], failing: Sequence[Test],
                      predict: Predictions, slips: Slips | None, fixes: "RepairSearch | None") -> Explanation | None:
    """One slip, a trap and a slip or two traps apart, two changes to the learner's file, two slips of
    one solution together, or one change to the learner's file and a trap or slip."""
    models = list(traps)
    if slips is None:
        return _find_pair(table, models, failing) or (fixes.two() if fixes else None) \
            or (fixes.with_model(models, {}) if fixes else None) or find_side_by_side(table, models, failing)
    every = list(slips.models())
    first, seen = first_tests(table, traps, failing), {}
    if every:
        seen = predict(every, first)
    candidates = slip_candidates(table, every, first, seen, predict)
    found = _find_single(table, candidates, failing) or _find_pair(table, models + candidates, failing) \
        or (fixes.two() if fixes else None) or find_side_by_side(table, models + candidates, failing)
    if found is not None:
        return found
    joined = slips.join(likely_pairs(every, first, seen))
    if joined:
        parts = [p for m in joined for p in m.parts]
        table.add(parts, predict(parts, tests))
        table.add(joined, predict(joined, tests))
        found = _find_single(table, joined, failing)
    return found or (fixes.with_model(models + every, seen) if fixes else None)


def _models_with_outputs(table: Table, traps: Sequence[Model], failing: Sequence[Test], predict: Predictions,
                         slips: Slips | None) -> tuple[list[Model], Outputs]:
    """The traps and one-slip models, with the slip models' outputs on the first tests."""
    every = list(slips.models()) if slips is not None else []
    return list(traps) + every, (predict(every, first_tests(table, traps, failing)) if every else {})


def _find_single(table: Table, models: Sequence[Model], failing: Sequence[Test]) -> Explanation | None:
    fits = [m for m in models if table.explains_alone(m, failing)]
    if len({m.messages for m in fits}) > 1:
        aimed = [m for m in fits if m.aimed]
        fits = aimed if len({m.messages for m in aimed}) == 1 else _exact(table, fits, failing)
    if not fits or len({m.messages for m in fits}) != 1:
        return None
    model = fits[0]
    return {t.index: _names_shown(table, model, t) for t in failing if table.matches[(model.key, t.index)]}


def _names_shown(table: Table, model: Model, test: Test) -> tuple[Named, ...]:
    """What a model names on a test: itself, or those of its parts whose slip shows there (each alone
    leaves this test's value wrong; both, when that is not known)."""
    if not model.parts:
        return (model.named,)
    shows = [p.named for p in model.parts if table.right.get((p.key, test.index)) is not True]
    return tuple(shows) or tuple(p.named for p in model.parts)


def _exact(table: Table, fits: Sequence[Model], failing: Sequence[Test]) -> list[Model]:
    """Of models that coincide within tolerance, the ones that return the very types the learner did
    (a numpy integer rather than a float) on every failing test, when they agree."""
    exact = [m for m in fits if all(kinds(table.outputs[(m.key, t.index)].value) == kinds(t.actual.value)
                                    for t in failing if table.matches[(m.key, t.index)])]
    return exact if len({m.messages for m in exact}) == 1 else []


def _find_relation(failing: Sequence[Test]) -> Explanation | None:
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
    named = _relation_held([f for f in found if f is not None], len(failing))
    if named is None:
        return _find_key_relation(failing)
    name, claim = named
    return {t.index: (name_relation(name, claim),) for t, f in zip(failing, found) if f and name in f}


MOSTLY = 2 / 3   # of the searched failing tests, those a relation must hold on where others show none


SEARCHED = frozenset({"permuted", "rearranged", "extra_or_missing", "transposed"})   # found by a search that can
# miss (near-duplicate slices, candidates looked at a few at a time): a test where it finds nothing is no evidence



def _relation_held(seen: Sequence[dict[str, Diagnosis]], failing: int) -> tuple[str, str] | None:
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


def _find_key_relation(failing: Sequence[Test]) -> Explanation | None:
    """A relation of one key of a dict output, in the same words on every failing test where that key is wrong
    (two or more, or the one there is), where the output as a whole has none: the similarities divided by 100
    on every test, beside a loss made from them that is wrong in no simple way. The key the relation covers
    the most failing tests of is named, on those tests."""
    first = failing[0].expected.value
    best: tuple[int, Explanation] | None = None
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
        named = _relation_held(list(found.values()), len(failing))
        if named is None or named[1].endswith(OBSERVED):
            continue
        shown = {i: (name_relation(*named),) for i, f in found.items() if named[0] in f}
        if best is None or len(shown) > best[0]:
            best = (len(shown), shown)
    return best[1] if best is not None else None


OBSERVED = (ANOTHER_ORDER, MOVED, SCALED)   # words that say what is seen, not how it came about
MOVED_ONLY = (ANOTHER_ORDER, MOVED)          # ... of which these say nothing between a trap and the learner: a
# rearranged trap's output rearranged again is nearly anything wrong (a constant factor is a fact there)


def common_claim(diagnoses: Sequence[Diagnosis]) -> str | None:
    """The most specific words of the first diagnosis that every other one says too; None when none is shared."""
    return next((c for c in diagnoses[0].wordings if all(c in d.wordings for d in diagnoses[1:])), None)


def _find_trap_with_relation(table: Table, traps: Sequence[Model], failing: Sequence[Test]) -> Explanation | None:
    """A trap and a relation: on every failing test the learner's value is the trap's output, or relates to it
    in one way said alike on every such test (the trap's mistake, then a factor, a row moved), and the trap's
    output is not the expected one somewhere. Where another trap relates to the expected value in that same
    way on those tests (a sum for a mean is "times the number of rows" there too), and gives the learner's
    value where the first is right, the two traps are named: two known mistakes, each in its author's words."""
    found = _TrapRelations(table, failing)
    composed: list[Explanation] = []
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
        return composed[0] if len({_messages_of(n) for n in composed}) == 1 else None
    if len({(trap.named.message, _messages_of(_name_related(trap, fit))) for trap, fit in fits}) != 1:
        return None
    return _name_related(*fits[0])


RELATED_ELEMENTS = 200_000   # outputs larger than this are not searched for a trap's relation (cost)


class _TrapRelations:
    """How the learner's value relates to each trap's output, and each trap's output to the expected value,
    test by test, in words that say how (judge.judging.diagnose); each looked for once."""

    def __init__(self, table: Table, failing: Sequence[Test]):
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
            if made is not None and made.error is None and count_numbers(made.value) > RELATED_ELEMENTS:
                found = None   # not searched (cost): the smaller tests decide
            elif made is not None and made.error is None:
                pair = (test.expected.value, made.value) if own else (made.value, test.actual.value)
                ds = relations(test.case, *pair, reference=own)
                # A rearrangement of a trap's rearranged output, or a trap's output scaled by some factor, is
                # true of nearly anything wrong and names nothing.
                found = None if ds is None else {d.name: replace(d, claims=c) for d in ds
                                                 if (c := tuple(x for x in d.wordings if not x.endswith(MOVED_ONLY)))}
            self.kept[kept] = found
        return self.kept[kept]

    def related(self, trap: Model, tests: Sequence[Test]) -> dict[int, Diagnosis | None] | None:
        """Per failing test: None where the trap alone gives the learner's value (or the values cannot tell),
        else the one relation (one name, words true on each) of the learner's value to the trap's output; None
        when there is none, or no test shows one."""
        kept = (trap.key, tuple(t.index for t in tests))
        if kept not in self.fits:
            self.fits[kept] = self._find_related(trap, tests)
        return self.fits[kept]

    def _find_related(self, trap: Model, tests: Sequence[Test]) -> dict[int, Diagnosis | None] | None:
        found: dict[int, dict[str, Diagnosis]] = {}
        for test in sorted(tests, key=lambda t: (case_size(t.case), t.index)):   # the cheap tests decide first
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

    def composed(self, trap: Model, other: Model) -> Explanation | None:
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
            if relation.name not in own or relation.message not in own[relation.name].wordings:
                return None
        named = {t.index: tuple(m.named for m in (trap, other) if table.right[(m.key, t.index)] is not True)
                 for t in self.failing}
        if {n.message for shown in named.values() for n in shown} != {trap.named.message, other.named.message}:
            return None
        return named


def _name_related(trap: Model, fit: dict[int, Diagnosis | None]) -> Explanation:
    """The trap and, where it shows, the relation of the learner's value to the trap's output."""
    return {i: (trap.named,) + ((name_trap_relation(d),) if d is not None else ()) for i, d in fit.items()}


def _messages_of(named: Explanation) -> frozenset[str]:
    return frozenset(n.message for shown in named.values() for n in shown)


def _find_pair(table: Table, models: Sequence[Model], failing: Sequence[Test]) -> Explanation | None:
    useful = [m for m in models if table.leaves_passed_right(m)
              and any(table.matches[(m.key, t.index)] for t in failing)]
    fits: dict[frozenset[str], Explanation] = {}
    for i, a in enumerate(useful):
        for b in useful[i + 1:]:
            if a.named.message == b.named.message:
                continue
            named = _fit_together(table, a, b, failing)
            if named is not None:
                fits.setdefault(frozenset((a.named.message, b.named.message)), named)
    return only_fit(fits, models)


def _fit_together(table: Table, a: Model, b: Model, failing: Sequence[Test]) -> Explanation | None:
    named: Explanation = {}
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
