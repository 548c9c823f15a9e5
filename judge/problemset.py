"""A problem set: its problems, their public examples with the reference's outputs, and your status.

Everything a face lists or shows before anything is judged: `judge list`,
`judge show`, the notebook's `problems()`, the web page's index and the
service's problem endpoints all read it from here. Nothing here starts a
sandbox; the public examples' outputs come from the expected-value cache (or
the trusted reference, run in this process, on a miss).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from judge import layout
from judge import problem as problem_files
from judge.errors import ConfigError, ConfigErrors
from judge.problem import Problem

if TYPE_CHECKING:
    from judge.cache import ExpectedCache
    from judge.cases import Case
    from judge.execute import Observation
    from judge.progress import ProgressStore


@dataclass(frozen=True)
class Broken:
    """A problem whose files do not load: its id and the first line of what is wrong."""

    id: str
    error: str


@dataclass(frozen=True)
class Entry:
    """One problem as a listing shows it."""

    problem: Problem
    status: str            # solved, attempted or new (judge.progress.Status)

    def to_json(self) -> dict:
        p = self.problem
        return {"id": p.id, "title": p.title, "difficulty": p.difficulty, "tags": list(p.tags),
                "framework": p.framework, "status": self.status}


@dataclass(frozen=True)
class Listing:
    """The problems that load, with their status; the broken ones; and why statuses are missing."""

    entries: tuple[Entry, ...]
    broken: tuple[Broken, ...] = ()
    warning: str | None = None     # the progress database is unusable: every status reads "new"


@dataclass(frozen=True)
class Example:
    """A public example with the reference's observation of it (`expected[MAIN]`)."""

    case: Case
    expected: dict[str, Observation]


@dataclass
class ProblemSet:
    """The problems under `root` (problems/, hidden_tests/, submissions/, units/)."""

    root: Path
    cache: ExpectedCache | None = field(default=None, repr=False)

    @classmethod
    def find(cls, problems_dir: str | os.PathLike | None = None, cache: ExpectedCache | None = None) -> "ProblemSet":
        """The set in `problems_dir`, else $JUDGE_PROBLEMS_DIR, else the repository's own."""
        return cls(problem_files.find_root(problems_dir), cache)

    def ids(self) -> list[str]:
        return problem_files.problem_ids(self.root)

    def get(self, problem_id: str) -> Problem:
        """One problem; an unknown id or a broken file is a ConfigError naming the file."""
        return problem_files.load_problem(self.root, problem_id)

    def load(self) -> tuple[list[Problem], list[Broken]]:
        """Every problem that loads, and the broken ones: one broken file never hides the others."""
        problems, broken = [], []
        for pid in self.ids():
            try:
                problems.append(self.get(pid))
            except ConfigError as exc:
                broken.append(Broken(pid, exc.lines()[0] if isinstance(exc, ConfigErrors) else str(exc)))
        return problems, broken

    def listing(self, store: ProgressStore | None = None) -> Listing:
        """Every problem with your status, in id order."""
        from judge.progress import problem_statuses

        problems, broken = self.load()
        statuses, warning = problem_statuses([p.id for p in problems], store)
        return Listing(tuple(Entry(p, statuses[p.id].value) for p in problems), tuple(broken), warning)

    def examples(self, problem: Problem) -> list[Example]:
        """The public examples with the reference's outputs (`judge show`, the problem page).

        Through the cache: a hit spares importing the reference (and, for torch problems, torch).
        """
        from judge.prepared import expected_of

        cases, expected = expected_of(problem, None, self.cache)
        return [Example(case, want) for case, want in zip(cases, expected)]

    def stamp(self) -> tuple:
        """Names, sizes and times of the set's problem and hidden-test files: any edit changes it.

        The whole set, not one problem's files: inputs may be made by another problem's reference.
        """
        return layout.stamp(self.root / "problems", self.root / "hidden_tests")
