"""Private copies of shipped problems, for tests that edit or break a problem set."""
from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def copy_problems(target: Path, *problem_ids: str) -> Path:
    """`target` as a problem set holding each problem's public YAML and hidden tests; returns `target`."""
    (target / "problems").mkdir(parents=True, exist_ok=True)
    for pid in problem_ids:
        shutil.copy(REPO / "problems" / f"{pid}.yaml", target / "problems")
        shutil.copytree(REPO / "hidden_tests" / pid, target / "hidden_tests" / pid,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return target


def learner_copy(relative: str, folder: Path) -> Path:
    """A copy of the known submission `relative` (under submissions/) in `folder`/mine/, as the
    learner's own file: runs of the problem set's own submissions are not the learner's attempts."""
    target = folder / "mine" / Path(relative).name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / relative, target)
    return target
