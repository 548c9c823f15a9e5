"""Two mistakes side by side: leaf by leaf (and entry by entry), the learner's value is one model's where
only that model departs from the expected value, and the expected value where neither does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from judge.judging.equality import entrywise, finite_anywhere, loose_kinds
from judge.judging.evidence import Explanation, Model, Table, Test, only_fit

def find_side_by_side(table: Table, models: Sequence[Model], failing: Sequence[Test]) -> Explanation | None:
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
    fits: dict[frozenset[str], Explanation] = {}
    loose: dict[frozenset[str], int] = {}
    for i, a in enumerate(useful):
        for b in useful[i + 1:]:
            if a.named.message == b.named.message:
                continue
            found = _fit_side_by_side(table, views, a, b, failing)
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
    return only_fit(fits, useful)


def _fit_side_by_side(table: Table, views: "_Views", a: Model, b: Model,
                      failing: Sequence[Test]) -> tuple[Explanation, int] | None:
    """The names per failing test where `a` and `b` show side by side, and how many leaves of the tests are not
    exactly either's or the expected value (None where they do not fit)."""
    named: Explanation = {}
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
        if not finite_anywhere(test.actual.value):
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

    def __init__(self, table: Table):
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
                self.kept[kept] = entrywise(test.case, test.expected.value, made.value)
            else:
                self.kept[kept] = entrywise(test.case, made.value, test.actual.value)
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
        right = entrywise(test.case, test.expected.value, test.actual.value)
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
        want, got = loose_kinds(test.expected.value), loose_kinds(test.actual.value)
        made = {m.key: loose_kinds(self.table.outputs[(m.key, test.index)].value) for m in (a, b)}
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
