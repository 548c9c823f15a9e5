"""`judge solution`: the reference and editorial once solved, or after a recorded confirmation
(judge/learner/editorial.py), and its place in `judge progress`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge.learner.editorial import solution
from judge.model.problem import load_hidden, load_problem, problem_ids
from judge.learner.progress import ProgressStore
from problemsets import learner_copy

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str, home: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "JUDGE_HOME": str(home)}
    env.pop("JUDGE_PROBLEMS_DIR", None)
    return subprocess.run([sys.executable, "-c", "from judge.cli.commands import main; main()", *args], cwd=REPO, env=env,
                          input=stdin, capture_output=True, text=True, timeout=180)


@pytest.mark.parametrize("pid", problem_ids(REPO))
def test_every_shipped_problem_has_an_editorial(pid: str) -> None:
    editorial = load_hidden(load_problem(REPO, pid)).editorial
    assert editorial is not None, f"hidden_tests/{pid}/tests.yaml has no `editorial:`"
    assert len(editorial.idea) > 80 and editorial.cost and len(editorial.mistakes) >= 2


def test_solution_shows_idea_cost_mistakes_and_the_reference() -> None:
    lines = solution(load_problem(REPO, "patchify")).lines()
    text = "\n".join(lines)
    for heading in ("The idea", "The cost", "Classic mistakes", "The reference"):
        assert heading in lines
    assert "    def patchify(images, patch_height, patch_width):" in lines


def test_before_solving_it_asks_and_records_that_it_was_viewed_early(tmp_path: Path) -> None:
    home = tmp_path / "home"
    refused = cli("solution", "pos_embed", home=home, stdin="")
    assert refused.returncode == 2 and "not solved yet: pass --yes" in refused.stderr
    assert "def " not in refused.stdout
    shown = cli("solution", "pos_embed", "--yes", home=home)
    assert shown.returncode == 0 and "The reference" in shown.stdout
    events = ProgressStore(home / "progress.sqlite3").events("pos_embed", "solution")
    assert [e[3] for e in events] == ["before"]
    progress = json.loads(cli("progress", "--json", home=home).stdout)
    assert progress["solutions_viewed"] == [{"problem": "pos_embed", "before_solving": True}]
    assert "solution viewed: pos_embed (before solving)" in cli("progress", home=home).stdout


def test_once_solved_it_shows_without_asking(tmp_path: Path) -> None:
    home = tmp_path / "home"
    accepted = learner_copy("submissions/patchify/accepted/reshape_permute.py", tmp_path)
    assert cli("run", "patchify", str(accepted), home=home).returncode == 0
    shown = cli("solution", "patchify", home=home, stdin="")
    assert shown.returncode == 0 and "The idea" in shown.stdout
    events = ProgressStore(home / "progress.sqlite3").events("patchify", "solution")
    assert [e[3] for e in events] == ["after"]
