"""What a check sees of one side of a test: the main call's observation, its own calls', every call's.

A check's view, made by `judge.model.cases.Case.view` (which names the calls): apart
from the cases so that a check depends on what it reads, not on how cases are
drawn.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from judge.runs.calls import Call, Observation


@dataclass(frozen=True)
class Observed:
    """What one check sees of one side of a test: the reference's or the submission's observations.

    `main` is the call on the test's inputs; `observed[name]` is one of the
    check's own extra calls, by the name its `calls` gave it. Other checks'
    calls cannot be reached by name, so a check cannot read them by mistake;
    `every` pairs each of the test's calls with its observation (None where
    none came back), for a check about all calls (mutation reads every call's
    inputs back).
    """

    main: Observation
    own: Mapping[str, Observation] = field(default_factory=dict)
    every: tuple[tuple[Call, Observation | None], ...] = ()

    def __getitem__(self, name: str) -> Observation:
        return self.own[name]
