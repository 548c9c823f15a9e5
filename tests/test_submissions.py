"""Every known submission of every problem gets the verdict its folder promises.

Submissions are discovered when pytest collects this file, so a problem added
to problems/ (with its submissions/<id>/<folder>/*.py) is covered without
touching this file. For patchify's wrong answers the first failing test must
also name the mistake the file makes.
"""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# Folder name -> expected overall verdict (shared/spec/judge.md layout).
FOLDER_VERDICTS = {
    "accepted": "accepted",
    "wrong_answer": "wrong_answer",
    "time_limit_exceeded": "time_limit_exceeded",
    "run_time_error": "runtime_error",
    "runtime_error": "runtime_error",
    "memory_limit_exceeded": "memory_limit_exceeded",
    "output_limit_exceeded": "output_limit_exceeded",
    "compile_error": "compile_error",
    "security_violation": "security_violation",
}

# patchify wrong answers: a phrase the first failing test's message must contain.
PATCHIFY_DIAGNOSES = {
    "batch_mixing.py": "mixed across the batch",
    "channels_last_flatten.py": "(ph, pw, C)",
    "column_major.py": "column-major",
    "detached_numpy.py": "not connected to the autograd graph",
    "modifies_input.py": "in place",
    "overlapping.py": "overlap",
    "reshape_without_permute.py": "without a permute",
    "silent_cropping.py": "cropping",
    "swapped_height_width.py": "H and W are swapped",
    "swapped_patch_sizes.py": "patch_height and patch_width are swapped",
    "xy_coordinates.py": "coordinates are (x, y)",
}


def _problem_ids() -> list[str]:
    return sorted(p.stem for p in (REPO / "problems").glob("*.yaml"))


def _submissions() -> list:
    params = []
    for problem_id in _problem_ids():
        root = REPO / "submissions" / problem_id
        for path in sorted(root.glob("*/*.py")):
            params.append(pytest.param(problem_id, path, id=f"{problem_id}/{path.parent.name}/{path.name}"))
    return params


SUBMISSIONS = _submissions()


@pytest.fixture(scope="module")
def judged(judge):
    """Reports by path, so a submission is judged once per module."""
    reports: dict[Path, object] = {}

    def run(problem_id: str, path: Path):
        if path not in reports:
            reports[path] = judge.run(problem_id, path)
        return reports[path]

    return run


def _failures(report) -> str:
    lines = [f"{t.name} [{t.group}] {t.verdict.value}: {t.message}"
             for t in report.tests if t.verdict.value != "accepted"]
    return "\n".join(lines) or "(no failing test)"


@pytest.mark.parametrize("problem_id, path", SUBMISSIONS)
def test_known_submission_gets_its_verdict(judged, problem_id: str, path: Path) -> None:
    folder = path.parent.name
    assert folder in FOLDER_VERDICTS, (
        f"{path.relative_to(REPO)}: unknown folder {folder!r}; expected one of {', '.join(FOLDER_VERDICTS)}")
    report = judged(problem_id, path)
    expected = FOLDER_VERDICTS[folder]
    assert report.verdict.value == expected, (
        f"{path.relative_to(REPO)}: expected {expected}, got {report.verdict.value} "
        f"({report.passed}/{report.total} passed); failing tests:\n{_failures(report)}")
    if folder != "accepted":
        assert report.first_failure is not None and report.first_failure.message, "a failure must say why"
    if problem_id == "patchify" and folder == "wrong_answer":
        keyword = PATCHIFY_DIAGNOSES.get(path.name)
        assert keyword is not None, f"add {path.name} and its diagnostic phrase to PATCHIFY_DIAGNOSES"
        first = report.first_failure
        assert keyword in first.message, (
            f"{path.name}: the first failing test {first.name!r} should name the mistake ({keyword!r}); "
            f"its message is:\n{first.message}")


@pytest.mark.parametrize("problem_id", _problem_ids())
def test_every_problem_has_an_accepted_submission(problem_id: str) -> None:
    accepted = sorted((REPO / "submissions" / problem_id / "accepted").glob("*.py"))
    assert accepted, f"submissions/{problem_id}/accepted/ holds no known correct solution"


def test_patchify_has_a_wrong_answer_for_every_diagnosis() -> None:
    present = {p.name for p in (REPO / "submissions" / "patchify" / "wrong_answer").glob("*.py")}
    assert present == set(PATCHIFY_DIAGNOSES)


def test_patchify_diagnoses_are_distinct(judged) -> None:
    """Each wrong answer is diagnosed as its own mistake, not as another file's."""
    root = REPO / "submissions" / "patchify" / "wrong_answer"
    for name, keyword in PATCHIFY_DIAGNOSES.items():
        others = [k for n, k in PATCHIFY_DIAGNOSES.items() if n != name and k not in keyword]
        message = judged("patchify", root / name).first_failure.message
        wrong = [k for k in others if k in message]
        assert not wrong, f"{name} is also diagnosed as {wrong}: {message}"
