"""Which problems a listing shows: `judge list`'s filters over the tutor's listing.

A unit (`--unit`) keeps its own problems in its own order; a unit's tag
(`unit-5.5`) means that unit's list, as `judge unit` and `judge progress`
count it, and any other tag a problem's own; every tag given must hold. Each
item is the entry's JSON with `extra` saying whether a unit lists the problem
only as an extra.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from judge.learner.tutor import Tutor
    from judge.learner.units import Unit
    from judge.model.problemset import Entry


def select_problems(tutor: "Tutor", entries: Iterable["Entry"], *, unit: "Unit | None" = None,
                    tags: tuple[str, ...] = (), difficulty: str | None = None,
                    status: str | None = None) -> list[dict]:
    """The listing items of `entries` that pass every filter given, in course order or `unit`'s."""
    entries = list(entries)
    if unit is not None:
        order = {pid: i for i, pid in enumerate([*unit.problems, *unit.extras])}
        entries = sorted((e for e in entries if e.problem.id in order), key=lambda e: order[e.problem.id])
    units = {f"unit-{u.id}": {*u.problems, *u.extras} for u in tutor.units()} if any(
        t.startswith("unit-") for t in tags) else {}
    extras = tutor.extras()
    return [{**e.to_json(), "extra": e.problem.id in extras} for e in entries
            if all(e.problem.id in units[t] if t in units else t in e.problem.tags for t in tags)
            and (difficulty is None or e.problem.difficulty == difficulty)
            and (status is None or e.status == status)]
