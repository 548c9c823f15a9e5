"""judge/judging/prepared.py: a prepared problem judges sources; a file that does not compile needs no sandbox."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.runs.contract import Program
from judge.judging.grading import grade
from judge.judging.prepared import compile_error
from judge.base.submission import Submission

PROBLEM = "patchify"
NOT_COMPILING = {
    "unclosed.py": "def patchify(images, patch_size:\n    return 1\n",
    "indented.py": "def patchify(images, patch_size):\nreturn images\n",
    "null_byte.py": "def patchify(images, patch_size):\n    return 1\x00\n",
    "return_outside.py": "return 1\n",                  # found by the compiler, after parsing
    "nonlocal_at_top.py": "def patchify(images, patch_size):\n    nonlocal x\n",
}


class Refusing:
    """A backend that must not be asked: the file is reported without running it."""

    asked = 0

    def run(self, *args, **kwargs):
        Refusing.asked += 1
        raise AssertionError("the sandbox was asked to run a file that does not compile")

    def close(self) -> None:
        pass


def _plain(report) -> dict:
    data = report.to_json()
    data.pop("time_ms")
    for test in data["tests"]:
        test.pop("time_ms"), test.pop("cpu_ms")
    return data


@pytest.mark.parametrize("name", sorted(NOT_COMPILING))
def test_a_file_that_does_not_compile_gets_the_sandboxs_report_without_a_sandbox(judge, name) -> None:
    prepared = judge.prepared(PROBLEM)
    source = NOT_COMPILING[name]
    without = replace(prepared, backend=Refusing()).judge(Submission(source, name))
    # The same source through the sandbox, as every file went before (grade() compiles nothing itself).
    program = Program(source=source, filename=name, entry_point=prepared.problem.entry_point,
                      framework=prepared.problem.framework)
    through = grade(prepared.problem, list(prepared.cases), list(prepared.expected), program, name,
                    prepared.backend, prepared.limits, prepared.traps)
    assert Refusing.asked == 0
    assert without.verdict.value == "compile_error"
    # Everything but the isolation warning, which only a run that started a child can give.
    assert without.warnings == []
    assert {**_plain(without), "warnings": None} == {**_plain(through), "warnings": None}


def test_compiling_here_prints_no_warning(capfd) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        assert compile_error("x = '\\d'\n", "escapes.py") is None  # an invalid escape: a warning when compiled
    assert capfd.readouterr().err == ""


def test_a_file_that_compiles_is_left_to_the_sandbox() -> None:
    assert compile_error("def patchify(images, patch_size):\n    raise SystemExit\n", "f.py") is None
    assert compile_error("import os\nos._exit(0)\n", "f.py") is None       # compiling runs nothing
    error = compile_error("def f(:\n", "mine.py")
    # Its line, and a caret under where it goes wrong, as Python's own traceback draws it.
    assert error.type == "SyntaxError" and error.where == "import" \
        and error.frames == ('File "mine.py", line 1\n    def f(:\n          ^',)


def test_prepare_all_caches_expected_values_so_a_first_run_needs_no_reference(tmp_path, monkeypatch) -> None:
    from judge.judging import prepared as prepared_module
    from judge.model.cache import ExpectedCache
    from judge.judging.session import Judge
    from problemsets import copy_problems

    root = copy_problems(tmp_path / "set", "patchify", "sinusoidal_positions")
    (root / "problems" / "broken.yaml").write_text("id: broken\ntitle: [unclosed\n")
    cache = ExpectedCache(tmp_path / "cache")
    heard = []
    with Judge(root, cache=cache, record=False) as judge:
        judge.prepare_all(on_problem=lambda pid, seconds, error: heard.append((pid, error is None)))
    assert sorted(heard) == [("broken", False), ("patchify", True), ("sinusoidal_positions", True)]
    assert heard[0] == ("patchify", True)  # torch problems first: their fork server starts at once

    def no_reference(*args):
        raise AssertionError("the reference ran: the expected values were not prepared ahead")

    monkeypatch.setattr(prepared_module, "_reference_outputs", no_reference)
    with Judge(root, cache=ExpectedCache(tmp_path / "cache"), record=False) as judge:
        source = (root / "hidden_tests" / "patchify" / "reference.py").read_text()
        assert judge.prepared("patchify").judge(Submission(source, "mine.py")).verdict.value == "accepted"


def test_judge_prepare_names_an_unknown_problem_and_exits_1(repo, tmp_path) -> None:
    import os
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", "from judge.cli.commands import main; main()", "prepare", "no_such_problem"],
                            cwd=repo, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "JUDGE_CACHE_DIR": str(tmp_path / "cache")})
    assert result.returncode == 1
    assert result.stderr.startswith("error: ") and "unknown problem id 'no_such_problem'" in result.stderr
    assert "Traceback" not in result.stderr


def test_examples_hold_the_references_outputs(tmp_path, repo):
    from judge.judging.prepared import examples
    from judge.model.cache import ExpectedCache
    from judge.model.cases import MAIN
    from judge.model.problemset import ProblemSet

    patchify = ProblemSet(repo).get("patchify")
    shown = examples(patchify, ExpectedCache(tmp_path / "cache"))
    assert [e.case.name for e in shown] == [t.name for t in patchify.examples]
    tiny = next(e for e in shown if e.case.name == "tiny_index_image")
    assert tiny.expected[MAIN].error is None and set(tiny.expected[MAIN].value) == {"tokens", "coordinates"}
