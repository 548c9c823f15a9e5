"""History with the code: show, compare and restore the source of earlier attempts.

Every judged attempt keeps its source text in the progress database (schema 3
on). `judge history ID --show N`, `--diff N M` and `--restore N PATH` read it
back by the attempt's number, the `#` column of `judge history`. Restoring
never overwrites a file unless forced, as `judge start` does.
"""
from __future__ import annotations

import difflib
from pathlib import Path

from judge.base.errors import ConfigError
from judge.base.escape import escape_name
from judge.learner.progress import Attempt, ProgressStore, ProgressUnavailable


def attempt_source(store: ProgressStore, number: int, problem: str | None = None) -> tuple[Attempt, str]:
    """The attempt numbered `number` and its source; a one-line usage error when there is none."""
    try:
        attempt = store.attempt(number)
    except ProgressUnavailable as exc:
        raise ConfigError(str(exc)) from None
    if attempt is None or (problem is not None and attempt.problem != problem):
        where = f" of {problem}" if problem else ""
        raise ConfigError(f"no attempt #{number}{where}; `judge history {problem or ''}` lists them".replace("  ", " "))
    if attempt.source is None:
        raise ConfigError(f"attempt #{number} was recorded before the judge kept sources; only its SHA-256 "
                          f"({attempt.sha256[:12]}...) is known")
    return attempt, attempt.source


def diff_lines(store: ProgressStore, old: int, new: int, problem: str | None = None) -> list[str]:
    """A unified diff from attempt `old` to attempt `new`."""
    a, a_source = attempt_source(store, old, problem)
    b, b_source = attempt_source(store, new, problem)
    lines = list(difflib.unified_diff(a_source.splitlines(), b_source.splitlines(),
                                      f"#{a.id} {a.when()} {a.verdict}", f"#{b.id} {b.when()} {b.verdict}",
                                      lineterm=""))
    return lines or [f"attempts #{old} and #{new} have the same source"]


def restore(store: ProgressStore, number: int, path: Path, *, problem: str | None = None,
            force: bool = False) -> Attempt:
    """Write attempt `number`'s source to `path` (never over an existing file unless `force`)."""
    attempt, source = attempt_source(store, number, problem)
    if path.exists() and not force:
        raise ConfigError("already exists; pass --force to overwrite it (its contents would be lost)", file=path)
    if not path.parent.is_dir():
        raise ConfigError(f"folder {path.parent} does not exist", file=path)
    try:
        path.write_text(source, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write: {exc.strerror or exc}", file=path) from None
    return attempt


def history_lines(attempts: list[Attempt]) -> list[str]:
    """A table of attempts, newest first, for `judge history`."""
    if not attempts:
        return ["no attempts recorded yet"]
    width = max(len(a.problem) for a in attempts)
    id_width = max(len(str(a.id)) for a in attempts)
    lines = [f"{'#'.rjust(id_width)}  {'when':<19}  {'problem'.ljust(width)}  {'verdict':<21}  {'passed':>7}  "
             f"{'mode':<8}  submission"]
    for a in attempts:
        mode = "examples" if a.examples_only else "full"
        lines.append(f"{str(a.id).rjust(id_width)}  {a.when()}  {a.problem.ljust(width)}  {a.verdict:<21}  "
                     f"{f'{a.passed}/{a.total}':>7}  {mode:<8}  {escape_name(a.submission)}")
    return lines
