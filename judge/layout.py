"""Where a problem set is and which files it has: its root, its problem ids, a stamp of its files.

Standard library only: `judge list` answers from its index (judge.index) after
finding the set and stamping it, before anything imports YAML or numpy.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

from judge.errors import ConfigError


def find_root(explicit: str | os.PathLike | None = None, *, cwd: Path | None = None,
              environ: Mapping[str, str | None] | None = None) -> Path:
    """The problem set to use: --problems-dir, $JUDGE_PROBLEMS_DIR, the cwd, or the repo.

    `cwd` and `environ` default to this process's; the warm server passes its client's.
    """
    cwd = Path.cwd() if cwd is None else cwd
    environ = os.environ if environ is None else environ
    for candidate, origin in ((explicit, "--problems-dir"), (environ.get("JUDGE_PROBLEMS_DIR"), "JUDGE_PROBLEMS_DIR")):
        if candidate:
            root = cwd / Path(candidate).expanduser()
            if not (root / "problems").is_dir():
                raise ConfigError(f"{origin}: no problems/ directory in {Path(candidate).expanduser()}",
                                  file=Path(candidate).expanduser())
            return root.resolve()
    for root in (cwd, Path(__file__).resolve().parent.parent):
        if (root / "problems").is_dir() and (root / "hidden_tests").is_dir():
            return root
    raise ConfigError("no problem set found: run inside a problem set (a directory with problems/ and "
                      "hidden_tests/) or pass --problems-dir DIR")


def problem_ids(root: Path) -> list[str]:
    return sorted(p.stem for p in (root / "problems").glob("*.yaml"))


def stamp(*directories: Path) -> tuple:
    """Names, sizes and times of every file under `directories`: any edit changes it."""
    entries = []
    for top in directories:
        for directory, _, files in os.walk(top):
            for name in files:
                try:
                    info = os.stat(os.path.join(directory, name))
                except OSError:
                    continue  # removed while we looked: the next stamp differs anyway
                entries.append((directory, name, info.st_size, info.st_mtime_ns))
    return tuple(sorted(entries))
