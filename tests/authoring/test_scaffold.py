"""judge new: scaffolds that validate as created, and never overwrite."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from judge.base.errors import ConfigError
from judge.authoring.scaffold import scaffold
from judge.judging.session import Judge
from judge.authoring.validate import Severity, validate


@pytest.fixture()
def empty_set(tmp_path):
    (tmp_path / "problems").mkdir()
    (tmp_path / "hidden_tests").mkdir()
    return tmp_path


def test_scaffolds_validate_as_created(empty_set):
    created = scaffold(empty_set, "scale_it") + scaffold(empty_set, "scale_np", "numpy")
    assert {str(p) for p in created} >= {"problems/scale_it.yaml", "hidden_tests/scale_it/tests.yaml",
                                         "hidden_tests/scale_it/reference.py",
                                         "submissions/scale_it/accepted/placeholder.py",
                                         "submissions/scale_it/wrong_answer/returns_zeros.py"}
    text = (empty_set / "problems" / "scale_it.yaml").read_text()
    assert "# must equal the file name" in text and "docs/authoring.md" in text  # commented templates
    with Judge(empty_set, record=False) as judge:
        result = validate(judge)
    problems = [str(d) for p in result.problems for d in p.diagnostics if d.severity is not Severity.INFO]
    assert result.ok and problems == [], problems
    assert "scale_it.submissions.wrong_answer.returns_zeros" in {d.aspect for d in result.problems[0].diagnostics}


def test_the_skeleton_is_neutral_and_named_for_its_id(empty_set):
    scaffold(empty_set, "rotate_tokens")
    files = {p: p.read_text() for p in empty_set.rglob("*") if p.is_file()}
    problem = files[empty_set / "problems" / "rotate_tokens.yaml"]
    assert "title: Rotate Tokens" in problem and "TODO" in problem
    # Nothing from another problem: no story, argument or title that the id did not ask for.
    assert not [p for p, text in files.items() if "scale" in text.lower() or "factor:" in text or ", factor" in text]
    assert "def rotate_tokens(x)" in files[empty_set / "hidden_tests" / "rotate_tokens" / "reference.py"]


def test_refuses_to_overwrite(empty_set):
    scaffold(empty_set, "scale_it")
    reference = empty_set / "hidden_tests" / "scale_it" / "reference.py"
    reference.write_text("# edited by the author\n")
    with pytest.raises(ConfigError, match="problem 'scale_it' already exists; refusing to overwrite it"):
        scaffold(empty_set, "scale_it")
    assert reference.read_text() == "# edited by the author\n"
    (empty_set / "problems" / "scale_it.yaml").unlink()   # any of its three places counts
    with pytest.raises(ConfigError, match="already exists"):
        scaffold(empty_set, "scale_it")


@pytest.mark.parametrize("bad", ["Scale", "2d", "with-dash", "", "x y"])
def test_rejects_bad_ids(empty_set, bad):
    with pytest.raises(ConfigError, match="expected lowercase letters, digits and underscores"):
        scaffold(empty_set, bad)
    assert not any((empty_set / "problems").iterdir())


def test_cli_new(empty_set):
    def new(*args):
        return subprocess.run([sys.executable, "-c", "from judge.cli.commands import main; main()", "--problems-dir",
                               str(empty_set), "new", *args], capture_output=True, text=True, timeout=120,
                              env={**os.environ, "NO_COLOR": "1"})

    first = new("scale_it")
    assert first.returncode == 0, first.stderr
    # It says where it writes: the active problem set, given here by --problems-dir.
    assert f"in the problem set {empty_set.resolve()}" in first.stdout
    assert f"created {empty_set.resolve() / 'problems' / 'scale_it.yaml'}" in first.stdout
    again = new("scale_it")
    assert again.returncode == 2
    assert again.stderr.startswith("error: ") and "already exists; refusing to overwrite it" in again.stderr


def test_a_one_file_problem_validates_and_its_reference_lives_in_tests_yaml(empty_set):
    created = scaffold(empty_set, "tidy_up", one_file=True)
    assert {str(p) for p in created} == {"problems/tidy_up.yaml", "hidden_tests/tidy_up/tests.yaml",
                                         "submissions/tidy_up/accepted/placeholder.py",
                                         "submissions/tidy_up/wrong_answer/returns_zeros.py"}
    with Judge(empty_set, record=False) as judge:
        result = validate(judge)
        problem = judge.problem("tidy_up")
    problems = [str(d) for p in result.problems for d in p.diagnostics if d.severity is not Severity.INFO]
    assert result.ok and problems == [], problems
    from judge.learner.editorial import solution
    assert "def tidy_up(x):" in solution(problem).reference
