"""`judge import deepml`: a clone in Deep-ML's format (written by these tests) becomes a problem set that
the learner's loop and `judge validate` use like any other; what cannot be imported says why."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from deepml_clone import MAT_VEC, MAT_VEC_TORCH, RUNNING_MEAN, write_clone
from judge.authoring.gate import GateOptions, run_gate
from judge.authoring.validate import validate
from judge.base.submission import Submission
from judge.importers.deepml.importer import import_deepml
from judge.judging.session import Judge

IMPORTED = {"dml_1", "dml_1_torch", "dml_2", "dml_3", "dml_4", "dml_7"}


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    return write_clone(tmp_path_factory.mktemp("clone"))


@pytest.fixture(scope="module")
def imported(clone: Path, tmp_path_factory):
    directory = tmp_path_factory.mktemp("set")
    report = import_deepml(clone, directory)
    return directory, report


@pytest.fixture(scope="module")
def judge(imported):
    with Judge(imported[0], record=False) as j:
        yield j


def _submit(judge: Judge, problem_id: str, source: str):
    return judge.submit(problem_id, Submission.from_text(source, "mine.py"), record=False)


# ---------------------------------------------------------------- the report

def test_what_imports_and_what_does_not_with_one_reason_each(imported):
    _, report = imported
    assert {i.problem_id for i in report.imported} == IMPORTED
    reasons = {s.problem_id: s.reason for s in report.skipped}
    assert set(reasons) == {"dml_5", "dml_6"}
    assert "solution.py: missing file" in reasons["dml_5"]
    assert "starter code passes every test" in reasons["dml_6"]
    assert report.unsupported == ["dml_1_tinygrad"]
    assert "1 tinygrad variants are not imported" in "\n".join(report.lines())
    assert all("\n" not in line for line in report.lines())


def test_tests_that_cannot_be_imported_are_left_out_with_their_reasons(imported):
    dropped = {(i.problem_id, d.number): d.reason for i in imported[1].imported for d in i.dropped}
    assert set(dropped) == {("dml_4", 2), ("dml_7", 1), ("dml_7", 2)}
    assert "not valid Python" in dropped[("dml_7", 1)]
    assert "the reference fails on the test: ValueError: zero" in dropped[("dml_7", 2)]
    assert "random numbers drawn after seeding" in dropped[("dml_4", 2)]


def test_a_wrong_expected_output_is_reported_with_both_values_and_the_references_is_kept(imported, judge):
    (disagreement,) = imported[1].disagreements
    assert (disagreement.problem_id, disagreement.number) == ("dml_1", 4)
    assert "'[2, 3]'" in disagreement.line() and "'[2, 2]'" in disagreement.line()
    assert _submit(judge, "dml_1", MAT_VEC).accepted       # the reference's [2, 2] is what test 4 expects


# ---------------------------------------------------------------- the problem set

def test_the_problems_are_laid_out_as_the_course(imported):
    directory, _ = imported
    public = yaml.safe_load((directory / "problems" / "dml_1.yaml").read_text())
    assert (public["title"], public["difficulty"], public["driver"], public["entry_point"]) == \
        ("Matrix Times Vector", "easy", "script", "mat_vec")
    assert "the length of $v$" in public["statement"]            # \(v\) as the page writes maths
    assert public["starter"].startswith("def mat_vec(")
    assert public["examples"][0]["inputs"]["call"] == "mat_vec(A, v)"  # example.json's input, as a call
    assert public["examples"][0]["explanation"].startswith("Row 1")
    hidden = yaml.safe_load((directory / "hidden_tests" / "dml_1" / "tests.yaml").read_text())
    assert hidden["editorial"]["idea"].startswith("## Matrix Times Vector")
    assert (directory / "hidden_tests" / "dml_1" / "reference.py").read_text() == MAT_VEC
    assert (directory / "submissions" / "dml_1" / "wrong_answer" / "starter.py").is_file()
    assert (directory / "submissions" / "dml_1_torch" / "runtime_error" / "starter.py").is_file()


def test_rounding_becomes_half_a_unit_of_the_last_decimal_kept(imported):
    directory, _ = imported
    tests = {t["name"]: t for t in yaml.safe_load((directory / "hidden_tests" / "dml_1" / "tests.yaml").read_text())["tests"]}
    assert tests["test_3"]["tolerance"]["atol"] == pytest.approx(5e-4)
    assert tests["test_1"]["tolerance"]["atol"] == pytest.approx(1e-8)
    several = yaml.safe_load((directory / "hidden_tests" / "dml_3" / "tests.yaml").read_text())["tests"][0]
    assert several["tolerance"]["keys"]["print_1"]["atol"] == pytest.approx(5e-5)   # f"{mean:.4f}"
    assert several["tolerance"]["keys"]["print_2"]["atol"] == pytest.approx(1e-8)


def test_the_setups_values_are_inputs_and_its_seeding_starts_the_call(imported):
    directory, _ = imported
    test = yaml.safe_load((directory / "hidden_tests" / "dml_2" / "tests.yaml").read_text())["tests"][0]
    assert test["inputs"]["call"].splitlines() == [
        "import numpy as np", "np.random.seed(42)", "Q = project(X, W_q)", "K = project(X, W_k)",
        "V = project(X, W_v)", "attention(Q, K, V)"]
    assert set(test["inputs"]["inputs"]["mapping"]) == {"X", "W_q", "W_k", "W_v"}


# ---------------------------------------------------------------- judged as every problem

def test_the_references_are_accepted_and_wrong_code_is_caught_test_by_test(judge):
    for problem_id, source in (("dml_1", MAT_VEC), ("dml_1_torch", MAT_VEC_TORCH), ("dml_3", RUNNING_MEAN)):
        assert _submit(judge, problem_id, source).accepted, problem_id
    no_sentinel = MAT_VEC.replace("return -1", "return None")
    report = _submit(judge, "dml_1", no_sentinel)
    assert [(t.name, t.verdict.value) for t in report.tests if t.verdict.value != "accepted"] == \
        [("test_2", "wrong_answer")]
    as_array = "import numpy as np\n\ndef mat_vec(A, v):\n    A = np.array(A)\n" \
               "    return -1 if A.shape[1] != len(v) else A @ np.array(v)\n"
    assert _submit(judge, "dml_1", as_array).accepted        # an array where a list was printed: the same values
    verdicts = {}
    for name, bias in (("close", "3e-5"), ("off", "1e-3")):
        report = _submit(judge, "dml_3", RUNNING_MEAN.replace("(1 - self.momentum) * x", f"(1 - self.momentum) * x + {bias}"))
        verdicts[name] = {t.name: t.verdict.value for t in report.tests}
    assert verdicts["close"]["test_1"] == "accepted"       # within the f-string's four decimals
    assert verdicts["close"]["test_2"] == "wrong_answer"   # a print that rounds nothing
    assert verdicts["off"]["test_1"] == "wrong_answer"


def test_the_imported_set_validates(judge):
    result = validate(judge, sorted(IMPORTED))
    assert result.ok, [str(d) for p in result.problems for d in p.diagnostics if d.severity.value == "error"]


def test_the_mutation_gate_runs_on_an_imported_problem(judge):
    result = run_gate(judge, "dml_1", GateOptions(per_file=6, budget_s=120))
    assert result.made > 0 and result.complete


def test_the_learners_commands_work_on_the_imported_set(imported, tmp_path: Path):
    directory, _ = imported
    mine = tmp_path / "mine.py"
    mine.write_text(MAT_VEC)
    env = {**os.environ, "NO_COLOR": "1", "JUDGE_HOME": str(tmp_path / "home")}
    env.pop("JUDGE_PROBLEMS_DIR", None)

    def judge_cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", "from judge.cli.commands import main; main()",
                               "--problems-dir", str(directory), *args], capture_output=True, text=True,
                              env=env, timeout=300, cwd=tmp_path)

    run = judge_cli("run", "dml_1", str(mine), "--json")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["verdict"] == "accepted" and report["passed"] == report["total"] == 5
    listed = judge_cli("list", "--json", "--tag", "deepml")
    assert {p["id"] for p in json.loads(listed.stdout)} == IMPORTED
    shown = judge_cli("show", "dml_1")
    assert shown.returncode == 0 and "mat_vec(A, v)" in shown.stdout
    history = json.loads(judge_cli("history", "dml_1", "--json").stdout)
    assert [(a["problem"], a["verdict"]) for a in history] == [("dml_1", "accepted")]   # progress and history


# ---------------------------------------------------------------- importing again

def test_a_reimport_updates_the_set_in_place(clone: Path, tmp_path: Path):
    again = write_clone(tmp_path / "clone")
    directory = tmp_path / "set"
    import_deepml(again, directory, numbers={6, 7})
    assert (directory / "problems" / "dml_7.yaml").is_file()
    edited = directory / "problems" / "dml_7.yaml"
    edited.write_text(edited.read_text().replace("title: Halve", "title: Edited"))
    shutil.rmtree(next((again / "questions").glob("7_*")) / "pytorch", ignore_errors=True)
    report = import_deepml(again, directory, numbers={7})
    assert "title: Halve" in edited.read_text()                   # what the import wrote, written again
    shutil.rmtree(next((again / "questions").glob("7_*")))
    report = import_deepml(again, directory, numbers={7})
    assert not report.imported and not (directory / "problems" / "dml_7.yaml").exists()   # gone from the clone


def test_the_command_line_reports_and_fails_on_a_folder_that_is_no_clone(tmp_path: Path):
    result = subprocess.run([sys.executable, "-c", "from judge.cli.commands import main; main()", "import",
                             "deepml", str(tmp_path), "-o", str(tmp_path / "out")], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().startswith("error: ") and "no questions/ folder" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_page_shows_and_judges_an_imported_problem(judge):
    pytest.importorskip("fastapi", reason="the web extra is not installed (pip install -e '.[web]')")
    pytest.importorskip("httpx", reason="httpx drives FastAPI's TestClient (pip install -e '.[e2e]')")
    from fastapi.testclient import TestClient

    from judge.web.app import create_app
    from judge.web.guard import Guard

    token, port = "test-token-0123456789", 8765
    with TestClient(create_app(judge, Guard(token, port)), base_url=f"http://127.0.0.1:{port}",
                    headers={"X-Judge-Token": token}) as client:
        page = client.get("/problem/dml_1").text
        assert "Matrix Times Vector" in page and "mat_vec(A, v)" in page
        response = client.post("/api/run/dml_1", json={"source": MAT_VEC, "examples_only": False})
        assert response.status_code == 200
        done = [json.loads(block.split("data: ", 1)[1]) for block in response.text.strip().split("\n\n")
                if block.startswith("event: done")]
        assert done[0]["verdict"] == "accepted" and done[0]["passed"] == 5
