"""Where problem sets come from: the flag, the environment, the working directory, the course, packs.

The set in use (the primary one) is the first of:

1. `--problems-dir DIR`, then `$JUDGE_PROBLEMS_DIR`: that set alone, no packs;
2. the problem set the working directory is inside (it or a parent holds
   problems/ and hidden_tests/), as in a clone of this repository;
3. the installed course: the package data of `judge_course` in the wheel (in a
   source checkout, the checkout itself).

Problem packs are installed distributions declaring an entry point in the
group `tensor_judge.problem_sets` whose value names a package laid out like
a problem set. Unless a set was named explicitly, every installed pack joins
the primary set. Nothing here imports a pack's code or writes anywhere: a
pack's directory is found from its module spec.
"""
from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Mapping

from judge.base.errors import ConfigError

GROUP = "tensor_judge.problem_sets"
COURSE_PACKAGE = "judge_course"
EXPLICIT = ("--problems-dir", "JUDGE_PROBLEMS_DIR")


@dataclass(frozen=True)
class Source:
    """One problem set on disk and how it was found."""

    name: str       # the pack's entry point name; "" for the primary set
    root: Path
    origin: str     # --problems-dir, JUDGE_PROBLEMS_DIR, working directory, installed course, checkout, pack

    def describe(self) -> str:
        label = f"pack {self.name}" if self.name else self.origin
        return f"{label}: {self.root}"


def is_problem_set(root: Path) -> bool:
    return (root / "problems").is_dir() and (root / "hidden_tests").is_dir()


def primary(explicit: str | os.PathLike | None = None, *, cwd: Path | None = None,
            environ: Mapping[str, str | None] | None = None) -> Source:
    """The set in use (the module docstring's order). `cwd`/`environ` default to this process's."""
    cwd = Path.cwd() if cwd is None else cwd
    environ = os.environ if environ is None else environ
    named = local(explicit, cwd=cwd, environ=environ)
    if named is not None:
        return named
    course = installed_course()
    if course is not None:
        return course
    raise ConfigError("no problem set found: run inside a problem set (a directory with problems/ and "
                      "hidden_tests/) or pass --problems-dir DIR; the installed course is missing too")


def local(explicit: str | os.PathLike | None = None, *, cwd: Path,
          environ: Mapping[str, str | None]) -> Source | None:
    """The set named by the flag or the environment, else the one `cwd` is inside; None when neither."""
    for candidate, origin in ((explicit, EXPLICIT[0]), (environ.get("JUDGE_PROBLEMS_DIR"), EXPLICIT[1])):
        if candidate:
            root = cwd / Path(candidate).expanduser()
            if not (root / "problems").is_dir():
                raise ConfigError(f"{origin}: no problems/ directory in {Path(candidate).expanduser()}",
                                  file=Path(candidate).expanduser())
            return Source("", root.resolve(), origin)
    for root in (cwd, *cwd.parents):
        if is_problem_set(root):
            return Source("", root.resolve(), "working directory")
    return None


def installed_course() -> Source | None:
    """The course shipped in the wheel; in a source checkout (an editable install), the checkout."""
    data = _package_directory(COURSE_PACKAGE)
    if data is not None and is_problem_set(data):
        return Source("", data.resolve(), "installed course")
    checkout = Path(__file__).resolve().parents[2]
    if is_problem_set(checkout):
        return Source("", checkout, "checkout")
    return None


def packs(exclude: tuple[Path, ...] = (), working_copy: Path | None = None) -> tuple[Source, ...]:
    """Every installed pack, by name; a pack whose root is in `exclude` (the primary set) is skipped,
    and so is the installed copy of `working_copy` when that is a pack's source (`installed_copies`).

    A pack that cannot be found is a ConfigError naming its distribution and entry point.
    """
    found: list[Source] = []
    seen = {p.resolve() for p in exclude}
    for entry in sorted(metadata.entry_points(group=GROUP), key=lambda e: e.name):
        if working_copy is not None and _is_source_of(working_copy, entry):
            continue
        root = _pack_root(entry)
        if root.resolve() in seen:
            continue
        seen.add(root.resolve())
        found.append(Source(entry.name, root.resolve(), "pack"))
    return tuple(found)


def installed_copies(working_copy: Path) -> tuple[Source, ...]:
    """The installed packs that `working_copy` is the source of: a pack author's folder after
    `pip install` (the working copy is used, its installed copy left out, so the ids are not in two sets).

    A working copy is a pack's source when it is the package directory `judge new --pack` made: its
    name is the entry point's package and a pyproject.toml beside it declares the group.
    """
    found = []
    for entry in sorted(metadata.entry_points(group=GROUP), key=lambda e: e.name):
        if _is_source_of(working_copy, entry):
            try:
                found.append(Source(entry.name, _pack_root(entry).resolve(), "pack"))
            except ConfigError:
                found.append(Source(entry.name, working_copy, "pack"))
    return tuple(found)


def _is_source_of(working_copy: Path, entry: metadata.EntryPoint) -> bool:
    return working_copy.name == entry.module.split(".")[0] and is_pack_source(working_copy)


def is_pack_source(root: Path) -> bool:
    """Whether `root` is a pack's package directory in its source folder (a pyproject.toml beside it
    declares the entry point group), as `judge new --pack` makes one."""
    try:
        return GROUP in (root.parent / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False


def holders(problem_id: str, target: Path) -> tuple[Source, ...]:
    """The problem sets other than `target` (and its own installed copy) that already hold
    `problem_id`: the installed course and the installed packs. An id in two of them would stop every
    judge command once both are in use, so authors are refused it up front (`judge new`, `judge validate`).
    """
    from judge.model.problem import problem_ids

    target = target.resolve()
    candidates = list(packs(exclude=(target,), working_copy=target))
    course = installed_course()
    if course is not None and course.root.resolve() != target:
        candidates.insert(0, course)
    return tuple(c for c in candidates if problem_id in problem_ids(c.root))


def _pack_root(entry: metadata.EntryPoint) -> Path:
    where = f"problem pack {entry.name!r} ({_distribution(entry)}, entry point {entry.value!r})"
    try:
        root = _package_directory(entry.module)
    except (ImportError, ValueError) as exc:
        raise ConfigError(f"{where}: cannot find its package: {exc}") from None
    if root is None:
        raise ConfigError(f"{where}: expected a package laid out like a problem set "
                          "(problems/, hidden_tests/), found no package directory")
    if not is_problem_set(root):
        raise ConfigError(f"{where}: no problems/ and hidden_tests/ in {root}")
    return root


def _package_directory(name: str) -> Path | None:
    """The directory of package `name` (a top-level one), found without importing it; None if absent."""
    spec = importlib.util.find_spec(name)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(locations[0]) if locations else None


def _distribution(entry: metadata.EntryPoint) -> str:
    dist = getattr(entry, "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else "unknown distribution"
