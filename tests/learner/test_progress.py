"""The progress database: recording, statuses, history, concurrency and damage (judge/learner/progress.py)."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge.cli.commands import main
from judge.learner.history import history_lines
from problemsets import learner_copy
from judge.learner.progress import (ProgressStore, ProgressUnavailable, Status, data_dir, home,
                            problem_statuses, source_hash)

ACCEPTED = "submissions/patchify/accepted/reshape_permute.py"
CLI = [sys.executable, "-c", "from judge.cli.commands import main; main()"]


def record(store: ProgressStore, problem="patchify", verdict="accepted", examples_only=False, source="x = 1",
           at=None) -> int:
    return store.record(problem=problem, verdict=verdict, passed=3, total=3 if verdict == "accepted" else 4,
                        examples_only=examples_only, source=source, submission="sol.py", time_ms=12.5, at=at)


def test_home_follows_judge_home_else_the_user_data_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "h"))
    assert home() == tmp_path / "h"
    assert ProgressStore().path == tmp_path / "h" / "progress.sqlite3"
    monkeypatch.delenv("JUDGE_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert data_dir() == tmp_path / "xdg" / "tensor-judge"
    assert home() == data_dir()


def test_record_and_read_back(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
    assert store.attempts() == []                       # no file yet: empty, and nothing created
    assert not store.path.exists()
    first = record(store, verdict="wrong_answer", at=1000.0)
    second = record(store, problem="info_nce", at=2000.0, source="y = 2")
    attempts = store.attempts()
    assert [a.id for a in attempts] == [second, first]  # newest first
    a = store.attempts("patchify")[0]
    assert (a.problem, a.verdict, a.passed, a.total, a.examples_only, a.submission) == \
        ("patchify", "wrong_answer", 3, 4, False, "sol.py")
    assert a.sha256 == source_hash("x = 1") and len(a.sha256) == 64
    assert store.attempts(limit=1)[0].id == second
    assert json.loads(json.dumps(a.to_json()))["verdict"] == "wrong_answer"
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_statuses_solved_only_by_a_full_accepted_run(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
    ids = ["a", "b", "c", "d"]
    assert store.statuses(ids) == {i: Status.NEW for i in ids}
    record(store, problem="a", verdict="accepted")
    record(store, problem="b", verdict="wrong_answer")
    record(store, problem="c", verdict="accepted", examples_only=True)   # "Run", not "Submit"
    record(store, problem="zzz", verdict="accepted")                     # not in this problem set
    assert store.statuses(ids) == {"a": Status.SOLVED, "b": Status.ATTEMPTED, "c": Status.ATTEMPTED, "d": Status.NEW}


def test_history_lines():
    assert history_lines([]) == ["no attempts recorded yet"]


def test_concurrent_writers_never_corrupt(tmp_path):
    """Four processes insert at once; every row arrives and the file passes integrity_check."""
    path = tmp_path / "p.sqlite3"
    code = ("import sys; from judge.learner.progress import ProgressStore\n"
            "s = ProgressStore(sys.argv[1])\n"
            "for i in range(150):\n"
            "    s.record(problem='p' + sys.argv[2], verdict='accepted', passed=1, total=1, examples_only=False,"
            " source=str(i), submission='s', time_ms=1.0)\n")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(path), str(n)]) for n in range(4)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0, 0]
    store = ProgressStore(path)
    assert len(store.attempts()) == 600
    assert {a.problem for a in store.attempts()} == {"p0", "p1", "p2", "p3"}
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_two_judge_runs_at_once_are_both_recorded(tmp_path, repo):
    env = {**os.environ, "JUDGE_HOME": str(tmp_path)}
    mine = learner_copy(ACCEPTED, tmp_path)
    command = [*CLI, "run", "patchify", str(mine), "--json"]
    procs = [subprocess.Popen(command, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outputs = [p.communicate(timeout=120) for p in procs]
    for (stdout, stderr), proc in zip(outputs, procs):
        assert proc.returncode == 0, stderr
        assert json.loads(stdout)["verdict"] == "accepted"   # stdout is the report and nothing else
        assert "progress" not in stderr
    attempts = ProgressStore(tmp_path / "progress.sqlite3").attempts()
    assert len(attempts) == 2 and {a.verdict for a in attempts} == {"accepted"}
    assert attempts[0].submission == str(mine.resolve())


def test_corrupted_database_warns_and_judging_still_works(judge, repo, tmp_path, monkeypatch):
    bad = tmp_path / "progress.sqlite3"
    bad.write_bytes(b"this is not a database" * 100)
    monkeypatch.setattr(judge, "progress", ProgressStore(bad))
    report = judge.run("patchify", learner_copy(ACCEPTED, tmp_path))
    assert report.accepted
    assert any("corrupted" in w and str(bad) in w for w in report.warnings), report.warnings
    statuses, warning = problem_statuses(["patchify"], ProgressStore(bad))
    assert statuses == {"patchify": Status.NEW} and "corrupted" in warning
    with pytest.raises(ProgressUnavailable, match="corrupted"):
        ProgressStore(bad).attempts()
    assert bad.read_bytes().startswith(b"this is not a database")   # the user's file is left alone


def test_unwritable_home_warns_and_judging_still_works(judge, repo, tmp_path, monkeypatch):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    monkeypatch.setattr(judge, "progress", ProgressStore(blocker / "sub" / "progress.sqlite3"))
    report = judge.run("patchify", learner_copy(ACCEPTED, tmp_path))
    assert report.accepted
    assert any("JUDGE_HOME" in w for w in report.warnings), report.warnings


def test_cli_warning_goes_to_stderr_and_json_stays_pure(tmp_path, repo):
    (tmp_path / "progress.sqlite3").write_bytes(b"garbage" * 1000)
    env = {**os.environ, "JUDGE_HOME": str(tmp_path)}
    proc = subprocess.run([*CLI, "run", "patchify", str(learner_copy(ACCEPTED, tmp_path)), "--json"],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["verdict"] == "accepted"
    assert "warning: progress database" in proc.stderr and "corrupted" in proc.stderr


def test_recording_can_be_disabled(judge, repo, tmp_path, monkeypatch):
    store = ProgressStore(tmp_path / "p.sqlite3")
    monkeypatch.setattr(judge, "progress", store)
    monkeypatch.setattr(judge, "record", False)
    judge.run("patchify", learner_copy(ACCEPTED, tmp_path), examples_only=True)
    assert store.attempts() == []
    monkeypatch.setattr(judge, "record", True)
    judge.run("patchify", learner_copy(ACCEPTED, tmp_path), examples_only=True)
    [attempt] = store.attempts()
    assert attempt.examples_only and attempt.verdict == "accepted" and attempt.total == 3


def test_judge_no_record_env(monkeypatch, repo):
    from judge.judging.session import Judge

    monkeypatch.setenv("JUDGE_NO_RECORD", "1")
    assert Judge(repo).record is False
    monkeypatch.setenv("JUDGE_NO_RECORD", "0")
    assert Judge(repo).record is True


def test_cli_list_and_history(tmp_path, monkeypatch, repo):
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path))
    store = ProgressStore()
    record(store, problem="patchify", verdict="wrong_answer", at=1000.0)
    record(store, problem="patchify", verdict="accepted", at=2000.0)
    runner = CliRunner()
    listed = runner.invoke(main, ["--problems-dir", str(repo), "list", "--json"])
    assert listed.exit_code == 0, listed.output
    statuses = {item["id"]: item["status"] for item in json.loads(listed.output)}
    assert statuses["patchify"] == "solved"
    assert set(statuses.values()) <= {"solved", "attempted", "new"}
    table = runner.invoke(main, ["--problems-dir", str(repo), "list"])
    assert any(line.startswith("solved") and "patchify" in line for line in table.output.splitlines())
    history = runner.invoke(main, ["--problems-dir", str(repo), "history", "patchify"])
    lines = history.output.splitlines()
    assert history.exit_code == 0 and len(lines) == 3
    assert "accepted" in lines[1] and "wrong_answer" in lines[2]          # newest first
    as_json = json.loads(runner.invoke(main, ["--problems-dir", str(repo), "history", "--json", "--limit", "1"]).output)
    assert [a["verdict"] for a in as_json] == ["accepted"]
    unknown = runner.invoke(main, ["--problems-dir", str(repo), "history", "no_such_problem"])
    assert unknown.exit_code == 2 and "unknown problem id" in unknown.output


def test_list_with_a_corrupted_database_still_lists(tmp_path, monkeypatch, repo):
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path))
    (tmp_path / "progress.sqlite3").write_bytes(b"garbage" * 1000)
    result = CliRunner().invoke(main, ["--problems-dir", str(repo), "list", "--json"])
    assert result.exit_code == 0
    assert "warning: progress database" in result.output   # CliRunner mixes stderr in
