"""Ranking candidates: which slip models and pairs of slips are worth running on every test, and how near
a changed file's values come to the expected ones.

Outputs are compared through a fixed random projection (`Sketch`) so a large output costs a pass, not a
matrix; a ranking only orders what is tried, it never names a mistake (judge.judging.explain does).
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from judge.model.cases import Case
from judge.judging.equality import same_numbers
from judge.judging.evidence import Model, Outputs, Predictions, Table, Test
from judge.runs.calls import Observation
from judge.base.leaves import MISSING, all_leaves, leaves, numeric
from judge.base.encoding import Array

CANDIDATE_SLIPS = 40   # slip models carried from the first tests to all of them, at most
JOINED = 24            # models with two slips made and run, at most (the likeliest pairs)
PROJECTED = 256        # outputs longer than this are compared through a fixed random projection


def first_tests(table: Table, traps: Sequence[Model], failing: Sequence[Test]) -> list[Test]:
    """The tests every slip model runs on: the smallest failing test, and the smallest failing test each
    trap with a match leaves right (where a second mistake shows alone)."""
    first = [min(failing, key=lambda t: (case_size(t.case), t.index))]
    for trap in traps:
        if any(table.matches[(trap.key, t.index)] for t in failing):
            clean = [t for t in failing if table.right[(trap.key, t.index)] is True]
            if clean:
                first.append(min(clean, key=lambda t: (case_size(t.case), t.index)))
    return list({t.index: t for t in first}.values())


def slip_candidates(table: Table, slips: Sequence[Model], first: Sequence[Test],
                    seen: Outputs, predict: Predictions) -> list[Model]:
    """The slip models worth checking on every test: those that give the learner's output on a first test."""
    candidates = []
    for slip in slips:
        for test in first:
            made = seen.get((slip.key, test.index))
            if made is not None and made.error is None and same_numbers(test.case, made.value, test.actual.value):
                candidates.append(slip)
                break
    candidates = candidates[:CANDIDATE_SLIPS]
    table.add(candidates, predict(candidates, list(table.tests.values())))
    return candidates


def case_size(case: Case) -> int:
    return sum(v.data.size for v in case.args if isinstance(v, Array))


def likely_pairs(slips: Sequence[Model], first: Sequence[Test],
                 seen: Outputs) -> list[tuple[Model, Model]]:
    """The pairs of slips most likely to give the learner's outputs together, best first.

    Two slips that both show on every test leave no test where one is seen alone, so pairs are
    ranked by how nearly their effects compose to the learner's output on the first tests: added
    (each shifts the value) or multiplied (each scales it: a sum for a mean, a dropped divisor),
    the best of each way in turn. A ranking only: a pair is named when the model with both slips
    gives the learner's outputs on every test (judge.judging.slips)."""
    goal = [flat_numbers(t.actual.value, t.expected.value) for t in first]
    if any(g is None for g in goal):
        return []
    rows = []
    for slip in slips:
        made = [seen.get((slip.key, t.index)) for t in first]
        flat = [flat_numbers(m.value, t.expected.value) if m is not None and m.error is None else None
                for m, t in zip(made, first)]
        if all(f is not None and len(f[0]) == len(g[0]) for f, g in zip(flat, goal)):
            rows.append((slip, np.concatenate([f[0] for f in flat])))
    if len(rows) < 2:
        return []
    expected = np.concatenate([g[1] for g in goal])
    target = np.concatenate([g[0] for g in goal])
    values = np.stack([v for _, v in rows])
    groups = np.array([slip.group for slip, _ in rows])
    sketch = Sketch(len(target))
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        nonzero = expected != 0
        ways = [(sketch(target - expected), np.stack([sketch(v - expected) for v in values])),
                (sketch(np.where(nonzero, np.log(np.abs(target)) - np.log(np.abs(expected)), 0)),
                 np.stack([sketch(np.where(nonzero, np.log(np.abs(v)) - np.log(np.abs(expected)), 0)) for v in values]))]
    rankings = [_rank_pairs(goal_way, effects, groups) for goal_way, effects in ways]
    pairs: list[tuple[int, int]] = []
    for k in range(JOINED):
        for ranking in rankings:
            if k < len(ranking) and ranking[k] not in pairs:
                pairs.append(ranking[k])
    return [(rows[i][0], rows[j][0]) for i, j in pairs[:JOINED]]


def _rank_pairs(goal: np.ndarray, effects: np.ndarray, groups: np.ndarray) -> list[tuple[int, int]]:
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


class Sketch:
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


def progress(first: Sequence[Test], made: Sequence[Observation]) -> tuple[float, ...] | None:
    """How far the values `made` on the first tests are from the expected ones, by four measures (lower is
    nearer): the distance; the numbers not right; the distance left after the best single factor (a value
    off by a factor only is near); and the form: leaves of another shape (and how far their sizes are),
    type or dtype. None where nothing can be measured (the expected values hold no numbers)."""
    distance = wrong = unscaled = form = 0.0
    for test, observation in zip(first, made):
        goal = flat_numbers(test.expected.value, test.expected.value)
        gap = _form_gap(observation.value, test.expected.value)
        if goal is None or gap is None:
            return None
        form += gap
        flat = flat_numbers(observation.value, test.expected.value)
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


def flat_numbers(value: Any, expected: Any) -> tuple[np.ndarray, np.ndarray] | None:
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
