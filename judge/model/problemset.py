"""A problem set: its problems, the packs they come from, and your status.

Everything a face lists before anything is judged: `judge list`, the
notebook's `problems()`, the web page's index and the service's problem
endpoints all read it from here. Nothing here runs code: a public example's
expected output is the reference's, run (or read from the cache) where
judging runs it (judge.judging.prepared.examples); `Example` is what it gives.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from judge.model import layout, locate
from judge.model import problem as problem_files
from judge.base.errors import ConfigError, ConfigErrors
from judge.model.locate import Source
from judge.model.problem import Problem

if TYPE_CHECKING:
    from judge.model.cache import ExpectedCache
    from judge.model.cases import Case
    from judge.runs.calls import Observation
    from judge.learner.progress import ProgressStore


@dataclass(frozen=True)
class Broken:
    """A problem whose files do not load: its id and the first line of what is wrong."""

    id: str
    error: str


@dataclass(frozen=True)
class Entry:
    """One problem as a listing shows it."""

    problem: Problem
    status: str            # solved, attempted or new (judge.learner.progress.Status)
    pack: str = ""         # the installed pack it comes from; "" for the set in use

    def to_json(self) -> dict:
        p = self.problem
        return {"id": p.id, "title": p.title, "difficulty": p.difficulty, "tags": list(p.tags),
                "framework": p.framework, "status": self.status, "pack": self.pack}


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
    """The problems under `root` (problems/, hidden_tests/, submissions/, units/), and the packs' ones.

    `packs` are installed problem packs (judge.model.locate) whose problems join the set: each keeps
    its own directory, and a problem id held by two of them is a ConfigError naming both.
    """

    root: Path
    cache: ExpectedCache | None = field(default=None, repr=False)
    packs: tuple[Source, ...] = ()
    origin: str = ""       # how the set was found (judge.model.locate.Source.origin)
    shadowed: tuple[Source, ...] = ()   # installed packs this working copy is the source of (left out)

    @classmethod
    def find(cls, problems_dir: str | os.PathLike | None = None, cache: ExpectedCache | None = None) -> "ProblemSet":
        """The set judge.model.locate finds (the flag, $JUDGE_PROBLEMS_DIR, the working directory, the
        installed course), with every installed pack unless the set was named explicitly."""
        source = locate.primary(problems_dir)
        if source.origin in locate.EXPLICIT:
            return cls(source.root, cache, (), source.origin)
        # A pack author's folder after `pip install`: its working copy wins over its installed copy.
        working = source.root if source.origin == "working directory" else None
        packs = locate.packs(exclude=(source.root,), working_copy=working)
        shadowed = locate.installed_copies(working) if working is not None else ()
        return cls(source.root, cache, packs, source.origin, shadowed)

    def notes(self) -> list[str]:
        """What a face says once about where the problems come from: a working copy used instead of its pack."""
        return [f"using the working copy {self.root} instead of the installed pack {s.name} ({s.root}); "
                "pip install the pack again to ship its changes" for s in self.shadowed]

    def clashes(self) -> list[str]:
        """When this set is a pack's source: its ids that the installed course or another installed pack
        holds too (`judge validate` refuses them): once the pack is installed, every judge command would
        stop at the clash. A set that is no pack's source is used alone or as the primary set: none."""
        if not locate.is_pack_source(self.root):
            return []
        found = []
        for pid in problem_files.problem_ids(self.root):
            for holder in locate.holders(pid, self.root):
                found.append(f"problem id {pid!r} is taken by {holder.describe()}: rename the problem (its files "
                             "and `id:`), or the set it is in cannot be used beside that one")
        return found

    def sources(self) -> list[Source]:
        """The set in use, then each pack: what `judge doctor` says is in use, and where."""
        return [Source("", self.root, self.origin or "given directory"), *self.packs]

    def _owners(self) -> dict[str, Source]:
        owners: dict[str, Source] = {}
        for source in self.sources():
            for pid in problem_files.problem_ids(source.root):
                if pid in owners:
                    raise ConfigError(f"problem id {pid!r} is in two problem sets: {owners[pid].describe()} "
                                      f"and {source.describe()}; uninstall one pack, or pass --problems-dir "
                                      "to use one set alone")
                owners[pid] = source
        return owners

    def ids(self) -> list[str]:
        if not self.packs:
            return problem_files.problem_ids(self.root)
        return sorted(self._owners())

    def pack_of(self, problem_id: str) -> str:
        """The pack `problem_id` comes from; "" for the set in use (and for unknown ids)."""
        if not self.packs:
            return ""
        source = self._owners().get(problem_id)
        return source.name if source is not None else ""

    def get(self, problem_id: str) -> Problem:
        """One problem; an unknown id or a broken file is a ConfigError naming the file."""
        if self.packs:
            source = self._owners().get(problem_id)
            if source is not None:
                return problem_files.load_problem(source.root, problem_id)
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

    def listing(self, store: ProgressStore) -> Listing:
        """Every problem with the learner's status in `store`, in id order (faces: `Tutor.listing`)."""
        problems, broken = self.load()
        statuses, warning = store.statuses_or_new([p.id for p in problems])
        packs = {pid: source.name for pid, source in self._owners().items()} if self.packs else {}
        return Listing(tuple(Entry(p, statuses[p.id].value, packs.get(p.id, "")) for p in problems),
                       tuple(broken), warning)

    def stamp(self) -> tuple:
        """Names, sizes and times of the set's problem and hidden-test files: any edit changes it.

        The whole set, not one problem's files: inputs may be made by another problem's reference.
        """
        return layout.stamp(*(source.root / top for source in self.sources() for top in ("problems", "hidden_tests")))
