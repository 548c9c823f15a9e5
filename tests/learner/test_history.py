"""History keeps the code: `judge history ID --show N / --diff N M / --restore N PATH` (judge/learner/history.py)."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from judge.base.errors import ConfigError
from judge.learner.history import attempt_source, diff_lines, restore
from judge.learner.progress import ProgressStore
from problemsets import learner_copy

REPO = Path(__file__).resolve().parents[2]
WRONG = REPO / "submissions/patchify/wrong_answer/column_major.py"
RIGHT = REPO / "submissions/patchify/accepted/loops.py"


def cli(*args: str, home: Path, cwd: Path = REPO) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "JUDGE_HOME": str(home)}
    env.pop("JUDGE_PROBLEMS_DIR", None)
    return subprocess.run([sys.executable, "-c", "from judge.cli.commands import main; main()", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=180)


@pytest.fixture
def store(tmp_path: Path) -> ProgressStore:
    store = ProgressStore(tmp_path / "p.sqlite3")
    for at, source, verdict in ((1.0, "def f():\n    return 1\n", "wrong_answer"),
                                (2.0, "def f():\n    return 2\n", "accepted")):
        store.record(problem="patchify", verdict=verdict, passed=1, total=2, examples_only=False, source=source,
                     submission="f.py", time_ms=1.0, at=at)
    return store


def test_sources_are_kept_and_compared(store: ProgressStore) -> None:
    attempt, source = attempt_source(store, 1)
    assert attempt.verdict == "wrong_answer" and source == "def f():\n    return 1\n"
    diff = diff_lines(store, 1, 2)
    assert "-    return 1" in diff and "+    return 2" in diff
    assert diff_lines(store, 2, 2) == ["attempts #2 and #2 have the same source"]


def test_restore_never_overwrites_unless_forced(store: ProgressStore, tmp_path: Path) -> None:
    target = tmp_path / "back.py"
    restore(store, 1, target)
    assert target.read_text() == "def f():\n    return 1\n"
    with pytest.raises(ConfigError, match="already exists; pass --force"):
        restore(store, 2, target)
    assert target.read_text() == "def f():\n    return 1\n"  # untouched
    restore(store, 2, target, force=True)
    assert target.read_text().endswith("return 2\n")
    with pytest.raises(ConfigError, match="does not exist"):
        restore(store, 2, tmp_path / "missing" / "x.py")


def test_unknown_attempt_or_other_problem_is_a_usage_error(store: ProgressStore) -> None:
    with pytest.raises(ConfigError, match="no attempt #9"):
        attempt_source(store, 9)
    with pytest.raises(ConfigError, match="no attempt #1 of pos_embed"):
        attempt_source(store, 1, "pos_embed")


def test_attempts_from_before_sources_were_kept_say_so(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, problem TEXT NOT NULL, "
                     "at REAL NOT NULL, verdict TEXT NOT NULL, passed INTEGER NOT NULL, total INTEGER NOT NULL, "
                     "examples_only INTEGER NOT NULL, sha256 TEXT NOT NULL, submission TEXT NOT NULL, "
                     "time_ms REAL NOT NULL); INSERT INTO attempts VALUES (1, 'patchify', 1.0, 'accepted', 25, "
                     "25, 0, 'abcdef0123456789', 'x.py', 3.0); PRAGMA user_version = 1;")
    db.close()
    store = ProgressStore(path)
    with pytest.raises(ConfigError, match="recorded before the judge kept sources.*abcdef012345"):
        attempt_source(store, 1)
    # A new attempt upgrades the file in place; the old attempt is kept.
    store.record(problem="patchify", verdict="accepted", passed=1, total=1, examples_only=False, source="x = 1",
                 submission="y.py", time_ms=1.0)
    assert [a.source for a in store.attempts()] == ["x = 1", None]


def test_history_commands_end_to_end(tmp_path: Path) -> None:
    home = tmp_path / "home"
    wrong = learner_copy(str(WRONG.relative_to(REPO)), tmp_path)
    right = learner_copy(str(RIGHT.relative_to(REPO)), tmp_path)
    assert cli("run", "patchify", str(wrong), home=home).returncode == 1
    assert cli("run", "patchify", str(right), home=home).returncode == 0
    listing = cli("history", "patchify", home=home).stdout.splitlines()
    assert listing[0].split()[:3] == ["#", "when", "problem"]
    assert listing[1].split()[0] == "2" and "accepted" in listing[1]
    shown = cli("history", "patchify", "--show", "1", home=home)
    assert shown.returncode == 0 and shown.stdout == WRONG.read_text()
    diff = cli("history", "patchify", "--diff", "1", "2", home=home)
    assert diff.stdout.startswith("--- #1 ") and "+++ #2 " in diff.stdout
    target = tmp_path / "restored.py"
    restored = cli("history", "patchify", "--restore", "1", str(target), home=home)
    assert restored.returncode == 0 and target.read_text() == WRONG.read_text()
    again = cli("history", "patchify", "--restore", "2", str(target), home=home)
    assert again.returncode == 2 and "already exists" in again.stderr and "Traceback" not in again.stderr
    both = cli("history", "--show", "1", "--diff", "1", "2", home=home)
    assert both.returncode == 2 and "alternatives" in both.stderr
