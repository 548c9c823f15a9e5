"""Course units: the YAML format, answers to self-test questions, progress through a unit, and
the `judge units`, `judge unit`, `judge quiz` and `judge list` filters as a learner uses them."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge.base.errors import ConfigError
from judge.learner.progress import ProgressStore
from judge.learner.units import load_unit, load_units, progress_of, unit_ids
from problemsets import copy_problems
from problemsets import learner_copy

REPO = Path(__file__).resolve().parents[2]

UNIT = '''id: "1.0"
title: Tokens
summary: Cutting images into tokens and back.
problems: [patchify]
extras: [unpatchify]
questions:
  - id: patches
    prompt: "224 x 224 with patch 16: how many patches?"
    numeric: {answer: 196}
    explanation: "14 * 14 = 196."
  - id: shape
    prompt: "Shape of the tokens?"
    numeric: {answer: [4, 36, 512]}
    explanation: "A 6 x 6 grid."
  - id: ratio
    prompt: "About how much more attention work?"
    numeric: {answer: 16, tolerance: 0.5}
    explanation: "Quadratic in tokens."
  - id: why
    prompt: "Why positions?"
    choice: {options: ["no reason", "attention is permutation-equivariant"], answer: b}
    explanation: "Attention sees a set."
completion: {problems: all, questions: all}
next: "1.1"
'''


@pytest.fixture
def problem_set(tmp_path: Path) -> Path:
    """patchify and unpatchify with their hidden tests, and one unit over them."""
    copy_problems(tmp_path, "patchify", "unpatchify")
    (tmp_path / "units").mkdir()
    (tmp_path / "units" / "1.0.yaml").write_text(UNIT)
    return tmp_path


@pytest.fixture
def store(tmp_path: Path) -> ProgressStore:
    return ProgressStore(tmp_path / "home" / "progress.sqlite3")


def cli(*args: str, root: Path, home: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "JUDGE_HOME": str(home), "JUDGE_PROBLEMS_DIR": str(root)}
    return subprocess.run([sys.executable, "-c", "from judge.cli.commands import main; main()", *args], env=env,
                          input=stdin, capture_output=True, text=True, timeout=120)


# ---------------------------------------------------------------- the format

def test_unit_loads_in_order_with_its_questions(problem_set: Path) -> None:
    unit = load_unit(problem_set, "1.0")
    assert unit.problems == ("patchify",) and unit.extras == ("unpatchify",)
    assert [q.id for q in unit.questions] == ["patches", "shape", "ratio", "why"]
    assert unit.question("shape").numbers == (4.0, 36.0, 512.0)
    assert unit.question("why").kind == "choice" and unit.question("why").answer == "b"
    assert unit.next == "1.1"


@pytest.mark.parametrize("old, new, field, phrase", [
    ("problems: [patchify]", "problems: [patchfy]", "problems", "unknown problem 'patchfy'"),
    ('id: "1.0"', 'id: "2.0"', "id", "must equal the file name"),
    ("answer: b}", "answer: c}", "questions[3].choice.answer", "from a to b"),
    ("numeric: {answer: 196}", "numeric: {answer: many}", "questions[0].numeric.answer", "number"),
    ("completion: {problems: all", "completion: {problems: 3", "completion.problems", "from 0 to 1"),
    ("    explanation: \"14 * 14 = 196.\"\n", "", "questions[0].explanation", "missing"),
    ("extras: [unpatchify]", "extras: [patchify]", "extras", "already one of the unit's problems"),
])
def test_bad_unit_yaml_is_a_one_line_error_naming_file_line_and_field(problem_set: Path, old: str, new: str,
                                                                       field: str, phrase: str) -> None:
    path = problem_set / "units" / "1.0.yaml"
    path.write_text(UNIT.replace(old, new))
    with pytest.raises(ConfigError) as exc:
        load_unit(problem_set, "1.0")
    text = str(exc.value)
    assert "\n" not in text
    assert text.startswith(f"{path}:") or "1.0.yaml:" in text
    assert f" {field}: " in text and phrase in text, text


def test_unknown_unit_names_the_known_ones(problem_set: Path) -> None:
    with pytest.raises(ConfigError, match=r"unknown unit '9\.9'; known units: 1\.0"):
        load_unit(problem_set, "9.9")


def test_units_sort_in_course_order(tmp_path: Path) -> None:
    (tmp_path / "units").mkdir()
    for uid in ("5.10", "5.6", "5.5"):
        (tmp_path / "units" / f"{uid}.yaml").write_text("")
    assert unit_ids(tmp_path) == ["5.5", "5.6", "5.10"]


# ---------------------------------------------------------------- answers

@pytest.mark.parametrize("qid, text, right", [
    ("patches", "196", True), ("patches", " 196.0 ", True), ("patches", "197", False),
    ("shape", "(4, 36, 512)", True), ("shape", "4,36,512", True), ("shape", "4 x 36 x 512", True),
    ("shape", "[4, 512, 36]", False), ("shape", "(4, 36)", False),
    ("ratio", "16", True), ("ratio", "15.9", True), ("ratio", "4", False),
    ("why", "b", True), ("why", "B)", True), ("why", "2", True), ("why", "a", False),
    ("why", "attention is permutation-equivariant", True),
])
def test_answers_are_read_as_a_person_writes_them(problem_set: Path, qid: str, text: str, right: bool) -> None:
    verdict = load_unit(problem_set, "1.0").question(qid).take(text)
    assert not verdict.unreadable
    assert verdict.right is right


@pytest.mark.parametrize("qid, text", [("patches", "many"), ("patches", "196 patches"), ("why", "z"),
                                       ("why", "")])
def test_unreadable_answers_say_what_is_expected(problem_set: Path, qid: str, text: str) -> None:
    verdict = load_unit(problem_set, "1.0").question(qid).take(text)
    assert verdict.unreadable and not verdict.right


# ---------------------------------------------------------------- progress

def test_a_unit_passes_when_every_problem_is_solved_and_every_answer_right(problem_set: Path,
                                                                         store: ProgressStore) -> None:
    unit = load_unit(problem_set, "1.0")
    standing, warning = progress_of(unit, store)
    assert warning is None and not standing.passed and standing.solved == 0 and standing.right == 0
    assert any("patchify" in line for line in standing.left())
    for q, answer in zip(unit.questions, ("196", "(4, 36, 512)", "16", "b")):
        store.record_answer(unit="1.0", question=q.id, answer=answer, correct=q.take(answer).right)
    common = dict(problem="patchify", passed=25, total=25, source="x", submission="x.py", time_ms=1.0)
    store.record(verdict="accepted", examples_only=True, **common)  # a Run, not a Submit
    assert not progress_of(unit, store)[0].passed
    store.record(verdict="accepted", examples_only=False, **common)
    standing = progress_of(unit, store)[0]
    assert standing.passed and standing.left() == []
    # The latest answer counts: a wrong answer after a right one un-passes the unit.
    store.record_answer(unit="1.0", question="why", answer="a", correct=False)
    assert not progress_of(unit, store)[0].passed


def test_answers_survive_an_older_database(problem_set: Path, tmp_path: Path) -> None:
    """A progress database written before units existed (schema 1) is upgraded, attempts kept."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, problem TEXT NOT NULL, "
                     "at REAL NOT NULL, verdict TEXT NOT NULL, passed INTEGER NOT NULL, total INTEGER NOT NULL, "
                     "examples_only INTEGER NOT NULL, sha256 TEXT NOT NULL, submission TEXT NOT NULL, "
                     "time_ms REAL NOT NULL); INSERT INTO attempts VALUES (1, 'patchify', 1.0, 'accepted', 25, "
                     "25, 0, 'ab', 'x.py', 3.0); PRAGMA user_version = 1;")
    db.close()
    store = ProgressStore(path)
    assert store.answers("1.0") == {}
    store.record_answer(unit="1.0", question="why", answer="b", correct=True)
    assert store.answers("1.0") == {"why": ("b", True)}
    assert [a.problem for a in store.attempts()] == ["patchify"]


# ---------------------------------------------------------------- the commands

def test_quiz_by_script_records_answers_and_unit_shows_them(problem_set: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    result = cli("quiz", "1.0", "--answer", "patches", "196", "--answer", "why", "a", root=problem_set, home=home)
    assert result.returncode == 1, result.stderr  # one answer was wrong
    assert "right: 196" in result.stdout and "14 * 14 = 196." in result.stdout
    assert "wrong: a; the answer is b) attention is permutation-equivariant" in result.stdout
    shown = json.loads(cli("unit", "1.0", "--json", root=problem_set, home=home).stdout)
    answers = {q["id"]: q["right"] for q in shown["questions"]}
    assert answers == {"patches": True, "shape": None, "ratio": None, "why": False}
    assert not shown["passed"] and any("judge quiz 1.0" in line for line in shown["left"])


def test_quiz_unknown_question_or_unreadable_answer_is_a_usage_error(problem_set: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    for args, phrase in ((("--answer", "nope", "1"), "no question 'nope'"),
                         (("--answer", "patches", "many"), "cannot read 'many'")):
        result = cli("quiz", "1.0", *args, root=problem_set, home=home)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert phrase in result.stderr.strip().splitlines()[-1]
    assert ProgressStore(home / "progress.sqlite3").answers("1.0") == {}


def test_quiz_in_the_terminal_asks_what_is_not_yet_right_and_rereads_unreadable_answers(
        problem_set: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    cli("quiz", "1.0", "--answer", "patches", "196", root=problem_set, home=home)
    result = cli("quiz", "1.0", root=problem_set, home=home, stdin="4 36 512\nsixteen\n16\nb\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "patches:" not in result.stdout  # already right: not asked again
    assert "cannot read 'sixteen'" in result.stdout
    assert result.stdout.count("right:") == 3


def test_a_learner_takes_a_unit_to_passed(problem_set: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    units = json.loads(cli("units", "--json", root=problem_set, home=home).stdout)
    assert [(u["id"], u["passed"], u["solved"], u["right"]) for u in units] == [("1.0", False, 0, 0)]
    submission = REPO / "submissions" / "patchify" / "accepted" / "reshape_permute.py"
    assert cli("run", "patchify", str(submission), root=problem_set, home=home).returncode == 0
    wrong = cli("quiz", "1.0", "--answer", "patches", "196", "--answer", "shape", "4, 36, 512",
                "--answer", "ratio", "4", "--answer", "why", "b", root=problem_set, home=home)
    assert wrong.returncode == 1
    assert "passed" not in cli("unit", "1.0", root=problem_set, home=home).stdout
    right = cli("quiz", "1.0", "--answer", "ratio", "16", root=problem_set, home=home)
    assert right.returncode == 0 and "passed: unit 1.0 is complete; next: unit 1.1" in right.stdout
    shown = cli("unit", "1.0", root=problem_set, home=home).stdout
    assert "passed: unit 1.0 is complete" in shown and "next: unit 1.1" in shown
    assert json.loads(cli("units", "--json", root=problem_set, home=home).stdout)[0]["passed"] is True


def test_list_filters_by_unit_tag_difficulty_and_status(problem_set: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"

    def ids(*args: str) -> list[str]:
        result = cli("list", "--json", *args, root=problem_set, home=home)
        assert result.returncode == 0, result.stderr
        return [item["id"] for item in json.loads(result.stdout)]

    assert ids() == ["patchify", "unpatchify"]
    assert ids("--unit", "1.0") == ["patchify", "unpatchify"]  # the unit's order, extras last
    assert ids("--tag", "inverse") == ["unpatchify"]
    assert ids("--tag", "vision", "--tag", "inverse") == ["unpatchify"]
    assert ids("--difficulty", "hard") == []
    assert ids("--status", "new") == ["patchify", "unpatchify"]
    ProgressStore(home / "progress.sqlite3").record(problem="patchify", verdict="wrong_answer", passed=1, total=25,
                                                    examples_only=False, source="x", submission="x.py", time_ms=1.0)
    assert ids("--status", "attempted") == ["patchify"]
    bad = cli("list", "--unit", "9.9", root=problem_set, home=home)
    assert bad.returncode == 2 and "unknown unit '9.9'" in bad.stderr



def test_repository_units_load() -> None:
    """The shipped units/*.yaml are valid and list every problem the course contracts."""
    units = {u.id: u for u in load_units(REPO)}
    assert set(units) >= {"5.5", "5.6"}
    assert units["5.5"].next == "5.6"
    assert len(units["5.5"].questions) >= 5 and len(units["5.6"].questions) >= 5


def _right_answer(question) -> str:
    from judge.learner.units import _format_numbers

    return question.answer if question.kind == "choice" else _format_numbers(question.numbers)


def _wrong_answer(question) -> str:
    from judge.learner.units import LETTERS

    if question.kind == "choice":
        return next(letter for letter in LETTERS[:len(question.options)] if letter != question.answer)
    return ", ".join(str(n + 10 * (question.tolerance + 1)) for n in question.numbers)


@pytest.mark.parametrize("unit_id", ["5.5", "5.6"])
def test_a_learner_takes_a_shipped_unit_to_passed(unit_id: str, tmp_path: Path) -> None:
    """Every problem of the unit solved with a shipped accepted submission, every question answered:
    one wrong answer keeps the unit open, the right one passes it and names the next unit."""
    from judge.judging.session import Judge

    home = tmp_path / "home"
    store = ProgressStore(home / "progress.sqlite3")
    unit = load_unit(REPO, unit_id)
    with Judge(REPO, progress=store, record=True) as j:
        for pid in unit.problems:
            accepted = sorted((REPO / "submissions" / pid / "accepted").glob("*.py"))
            assert accepted, f"{pid} ships no accepted submission"
            report = j.run(pid, learner_copy(str(accepted[0].relative_to(REPO)), tmp_path / pid))
            assert report.accepted, (pid, report.first_failure)
    first, *rest = unit.questions
    answers = [arg for q in rest for arg in ("--answer", q.id, _right_answer(q))]
    wrong = cli("quiz", unit_id, "--answer", first.id, _wrong_answer(first), *answers, root=REPO, home=home)
    assert wrong.returncode == 1, wrong.stdout + wrong.stderr
    shown = json.loads(cli("unit", unit_id, "--json", root=REPO, home=home).stdout)
    assert shown["solved"] == len(unit.problems) and not shown["passed"]
    assert shown["left"] == [f"answer 1 more question(s) right: {first.id} (judge quiz {unit_id})"]
    right = cli("quiz", unit_id, "--answer", first.id, _right_answer(first), root=REPO, home=home)
    assert right.returncode == 0 and f"passed: unit {unit_id} is complete" in right.stdout
    assert (f"next: unit {unit.next}" in right.stdout) if unit.next else "next" not in right.stdout
    assert json.loads(cli("unit", unit_id, "--json", root=REPO, home=home).stdout)["passed"] is True


def test_a_unit_id_names_a_file_in_units_and_nothing_else(repo):
    from judge.base.errors import ConfigError
    from judge.learner.units import load_unit

    for crafted in ("../problems/patchify", "/etc/passwd", "5.5/../5.6", ""):
        with pytest.raises(ConfigError, match="unknown unit"):
            load_unit(repo, crafted)
    assert load_unit(repo, "5.5").id == "5.5"


def test_no_multiple_choice_answer_is_given_away_by_its_length_or_position() -> None:
    """In every shipped choice question the right option is neither the unique longest nor the
    unique shortest, and across the set the right answer sits at different positions."""
    positions = []
    for unit in load_units(REPO):
        for q in unit.questions:
            if q.kind != "choice":
                continue
            lengths = [len(o) for o in q.options]
            right = lengths[ord(q.answer) - ord("a")]
            assert not (right == max(lengths) and lengths.count(right) == 1), (unit.id, q.id, "longest")
            assert not (right == min(lengths) and lengths.count(right) == 1), (unit.id, q.id, "shortest")
            positions.append(q.answer)
    assert len(positions) >= 5 and len(set(positions)) >= 3, positions


def test_in_the_terminal_a_wrong_answer_gets_one_more_try_before_the_answer_is_shown(
        problem_set: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    retried = cli("quiz", "1.0", root=problem_set, home=home, stdin="1\n196\n(4, 36, 512)\n16\na\nb\n")
    out = retried.stdout
    assert "not quite (1); one more try" in out and "right: 196" in out
    assert "the answer is 196" not in out
    assert "not quite (a); one more try" in out and "right: b" in out
    twice = cli("quiz", "1.0", "--all", root=problem_set, home=home, stdin="1\n2\n196\n(4, 36, 512)\n16\nb\n")
    assert "wrong: 2; the answer is 196" in twice.stdout and twice.returncode == 1


def test_every_listing_follows_the_course_and_marks_its_extras(problem_set: Path, tmp_path: Path) -> None:
    """`judge list` (its index and the full path), `list --unit`, the notebook's problems() and the page
    share one order, the course's, whatever the ids' alphabetical order; an extra is marked."""
    from judge.notebook import problems
    from judge.learner.units import course_order, extra_ids

    (problem_set / "units" / "1.0.yaml").write_text(UNIT.replace("problems: [patchify]", "problems: [unpatchify]")
                                                    .replace("extras: [unpatchify]", "extras: [patchify]"))
    units = load_units(problem_set)
    assert course_order(["patchify", "unpatchify", "zzz"], units) == ["unpatchify", "patchify", "zzz"]
    assert extra_ids(units) == {"patchify"}
    home = tmp_path / "home"
    env = {**os.environ, "NO_COLOR": "1", "JUDGE_HOME": str(home), "JUDGE_PROBLEMS_DIR": str(problem_set),
           "JUDGE_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(2):  # the index built, then read
        fast = subprocess.run([sys.executable, "-m", "judge", "list", "--json"], env=env, capture_output=True,
                              text=True, timeout=120)
        assert [(i["id"], i["extra"]) for i in json.loads(fast.stdout)] == [("unpatchify", False), ("patchify", True)]
    human = cli("list", root=problem_set, home=home).stdout.splitlines()
    assert [line.split()[1] for line in human[1:]] == ["unpatchify", "patchify"]
    assert "(extra) Patchify a Batch of Images" in human[2] and "(extra)" not in human[1]
    unit = cli("list", "--unit", "1.0", root=problem_set, home=home).stdout.splitlines()
    assert [line.split()[1] for line in unit[1:]] == ["unpatchify", "patchify"] and "(extra)" in unit[2]
    listed = problems(problem_set)
    assert [(p.id, p.extra) for p in listed] == [("unpatchify", False), ("patchify", True)]
    assert "(extra) Patchify" in repr(listed) and "(extra) Patchify" in listed._repr_html_()
