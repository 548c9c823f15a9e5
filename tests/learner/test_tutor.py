"""The tutor (judge.learner.tutor): one learner's status, hints, solutions, answers and history, and what is
recorded; no face opens the progress database itself."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge.model.problemset import ProblemSet
from judge.learner.progress import ProgressStore
from judge.base.report import Report
from judge.base.report import TestResult as Result
from judge.base.submission import Submission
from judge.learner.tutor import NotSolvedYet, Tutor
from judge.base.outcomes import Verdict
from problemsets import REPO, copy_problems, learner_copy

DEMO = "submissions/patchify/accepted/reshape_permute.py"   # the quick start's demo file


def _accepted(problem: str = "patchify") -> Report:
    return Report(problem=problem, submission="x.py",
                  tests=[Result(name="t", group="hidden", verdict=Verdict.ACCEPTED)])


def _tutor(tmp_path: Path, record: bool = True) -> Tutor:
    return Tutor(ProblemSet(REPO), ProgressStore(tmp_path / "p.sqlite3"), record=record)


def test_a_learners_run_is_recorded_and_the_problem_sets_own_submission_is_not(tmp_path):
    tutor = _tutor(tmp_path)
    own = Submission.from_file(REPO / DEMO)
    mine = Submission.from_file(learner_copy(DEMO, tmp_path))
    assert tutor.is_own(own) and not tutor.records(own)
    assert not tutor.is_own(mine) and tutor.records(mine)
    assert tutor.record_run("patchify", _accepted(), own, examples_only=False) is None
    assert tutor.store.attempts() == [] and not tutor.solved("patchify")
    tutor.record_run("patchify", _accepted(), mine, examples_only=False)
    [attempt] = tutor.store.attempts()
    assert attempt.submission == mine.origin == str(mine.path) and tutor.solved("patchify")


def test_text_without_a_file_is_the_learners_and_recording_off_records_nothing(tmp_path):
    text = Submission.from_text("def patchify(x, p):\n    return x\n", "editor.py", origin="web editor")
    assert _tutor(tmp_path).records(text)
    off = _tutor(tmp_path, record=False)
    off.record_run("patchify", _accepted(), text, examples_only=False)
    off.hint("patchify")
    assert off.store.attempts() == [] and off.store.events() == []


def test_hints_go_one_level_at_a_time_and_are_shown_again(tmp_path):
    tutor = _tutor(tmp_path)
    first, _ = tutor.hint("patchify")
    second, _ = tutor.hint("patchify")
    assert (first.level, second.level) == (1, 2)
    assert [h.level for h in tutor.hints_shown("patchify")] == [1, 2]


def test_the_solution_waits_until_solved_or_confirmed_and_is_recorded_as_such(tmp_path):
    tutor = _tutor(tmp_path)
    with pytest.raises(NotSolvedYet):
        tutor.solution("patchify")
    shown, warning = tutor.solution("patchify", confirmed=True)
    assert warning is None and shown.problem == "patchify" and "def patchify" in shown.reference
    assert [e[3] for e in tutor.store.events("patchify", "solution")] == ["before"]
    tutor.record_run("patchify", _accepted(), Submission.from_text("x", "mine.py"), examples_only=False)
    tutor.solution("patchify")
    assert [e[3] for e in tutor.store.events("patchify", "solution")] == ["before", "after"]


def test_a_wrong_answer_gets_one_retry_before_the_answer_is_revealed(tmp_path):
    for record in (True, False):   # remembered in the database, or for the tutor's life when not recording
        tutor = _tutor(tmp_path / str(record), record=record)
        unit = tutor.unit("5.5")
        question = next(q for q in unit.questions if q.kind == "choice")
        wrong = next(letter for letter in "abcd"[:len(question.options)] if letter != question.answer)
        first = tutor.answer(unit, question.id, wrong)
        assert not first.right and not first.reveal
        second = tutor.answer(unit, question.id, wrong)
        assert not second.right and second.reveal
        right = tutor.answer(unit, question.id, question.answer)
        assert right.right and right.reveal
        assert right.standing.answers == ({question.id: (question.answer, True)} if record else {})
        again = tutor.answer(unit, question.id, wrong)
        assert not again.reveal                      # after a right answer, a wrong one is a first try again
        unreadable = tutor.answer(unit, question.id, "zzz")
        assert unreadable.verdict.unreadable and not unreadable.reveal


def test_an_unusable_database_is_a_warning_not_a_failure(tmp_path):
    bad = tmp_path / "p.sqlite3"
    bad.write_bytes(b"not a database" * 100)
    tutor = Tutor(ProblemSet(REPO), ProgressStore(bad), record=True)
    statuses, warning = tutor.statuses(["patchify"])
    assert statuses["patchify"].value == "new" and "corrupted" in warning
    shown, warning = tutor.hint("patchify")
    assert shown.level == 1 and "corrupted" in warning
    report = _accepted()
    assert "corrupted" in tutor.record_run("patchify", report, Submission.from_text("x", "m.py"), examples_only=False)
    assert any("corrupted" in w for w in report.warnings)
    assert tutor.attempts()[0] == [] and "corrupted" in tutor.attempts()[1]


# ---------------------------------------------------------------- no face opens the progress store

FACES = [*sorted((REPO / "judge" / "cli").glob("*.py")), REPO / "judge" / "notebook.py",
         *sorted((REPO / "judge" / "web").glob("*.py")), *sorted((REPO / "judge" / "warm").glob("*.py")),
         *sorted((REPO / "judge" / "service").glob("*.py"))]
# What reaches the learner's database other than through the tutor (where the data directory is, is no record).
FORBIDDEN_MODULES = {"judge.learner.progress", "judge.learner.hints", "judge.learner.editorial", "judge.learner.overview"}
ALLOWED = {"judge.learner.progress": {"home", "data_dir"}}
FORBIDDEN_NAMES = {"ProgressStore", "recording", "progress_of", "problem_statuses", "take_hint", "record_view",
                   "record_attempt", "record_answer", "record_event", "hint_level"}


def _reaches_the_store(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in FORBIDDEN_MODULES:
            found += [f"line {node.lineno}: from {node.module} import {a.name}" for a in node.names
                      if a.name not in ALLOWED.get(node.module, set())]
        elif isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names if a.name in FORBIDDEN_MODULES]
        elif isinstance(node, ast.ImportFrom):
            found += [f"line {node.lineno}: imports {a.name}" for a in node.names if a.name in FORBIDDEN_NAMES]
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            found.append(f"line {node.lineno}: uses {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_NAMES:
            found.append(f"line {node.lineno}: uses .{node.attr}")
    return found


@pytest.mark.parametrize("face", FACES, ids=lambda p: str(p.relative_to(REPO)))
def test_no_face_opens_the_progress_store(face: Path):
    assert _reaches_the_store(face) == []


def test_the_face_check_catches_a_face_that_opens_the_store(tmp_path):
    sneaky = tmp_path / "face.py"
    sneaky.write_text("from judge.learner.progress import ProgressStore\n\ndef f():\n    return ProgressStore().attempts()\n")
    assert len(_reaches_the_store(sneaky)) == 2


# ---------------------------------------------------------------- the quick start's demo is no solve

def _cli(*args: str, home: Path, cwd: Path = REPO) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "JUDGE_HOME": str(home), "JUDGE_NO_WARM": "1"}
    env.pop("JUDGE_PROBLEMS_DIR", None)
    env.pop("JUDGE_NO_RECORD", None)
    return subprocess.run([sys.executable, "-c", "from judge.cli.commands import main; main()", *args], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)


def test_the_quick_start_demo_run_is_not_the_learners_solve(tmp_path):
    home = tmp_path / "home"
    demo = _cli("run", "patchify", DEMO, home=home)
    assert demo.returncode == 0 and "accepted" in demo.stdout
    listed = {p["id"]: p["status"] for p in json.loads(_cli("list", "--json", home=home).stdout)}
    assert listed["patchify"] == "new"
    progress = json.loads(_cli("progress", "--json", home=home).stdout)
    assert "patchify" not in progress["solved"] and progress["attempts"] == 0
    asked = _cli("solution", "patchify", home=home)
    assert asked.returncode == 2 and "not solved yet" in asked.stderr and "The reference" not in asked.stdout
    # The same file as the learner's own is their solve.
    mine = learner_copy(DEMO, tmp_path)
    assert _cli("run", "patchify", str(mine), home=home).returncode == 0
    listed = {p["id"]: p["status"] for p in json.loads(_cli("list", "--json", home=home).stdout)}
    assert listed["patchify"] == "solved"


def test_a_copied_problem_sets_own_submissions_are_not_recorded_either(tmp_path):
    from judge.judging.session import Judge

    root = copy_problems(tmp_path / "set", "patchify")
    (root / "submissions" / "patchify").mkdir(parents=True)
    known = root / "submissions" / "patchify" / "demo.py"
    known.write_text((REPO / DEMO).read_text())
    store = ProgressStore(tmp_path / "p.sqlite3")
    with Judge(root, progress=store, record=True) as judge:
        assert judge.run("patchify", known, examples_only=True).accepted
        assert store.attempts() == []
        assert judge.run("patchify", learner_copy(DEMO, tmp_path), examples_only=True).accepted
        assert len(store.attempts()) == 1


def test_a_new_face_needs_only_judge_submit_and_the_tutor(tmp_path):
    """What a fourth face (an editor extension, a chat bot) writes: no store, no recording rule."""
    from judge import Judge, Submission
    from inprocess import InProcessBackend

    source = (REPO / DEMO).read_text()
    with Judge(REPO, backend=InProcessBackend(), progress=ProgressStore(tmp_path / "p.sqlite3"), record=True) as judge:
        report = judge.submit("patchify", Submission.from_text(source, "chat.py", origin="chat bot"))
        assert report.accepted
        hint, _ = judge.tutor.hint("patchify")
        shown, _ = judge.tutor.solution("patchify")              # solved: no confirmation needed
        answered = judge.tutor.answer("5.5", "patches_224", "196")
        attempts, _ = judge.tutor.attempts("patchify")
    assert hint.level == 1 and "def patchify" in shown.reference and answered.right
    assert [a.submission for a in attempts] == ["chat bot"] and judge.tutor.status("patchify").value == "solved"


def test_after_an_acceptance_the_next_step_is_the_units_next_problem_then_its_quiz(tmp_path):
    tutor = _tutor(tmp_path)
    assert tutor.next_step("patchify") == "judge show patch_embed   (unit 5.5: 1 of 11 problems solved; next in order)"
    # An extra of the unit leads back into its problems, in order.
    assert tutor.next_step("unpatchify").startswith("judge show patchify   (unit 5.5: 0 of 11")
    # Every problem of the unit solved but the last one taken now: its self-test questions are next.
    unit = tutor.unit("5.5")
    for pid in unit.problems[:-1]:
        tutor.record_run(pid, _accepted(pid), Submission.from_text("x = 1\n", "mine.py", origin="mine.py"),
                         examples_only=False)
    assert tutor.next_step(unit.problems[-1]) == "judge quiz 5.5   (every problem of unit 5.5 solved: its self-test questions)"
