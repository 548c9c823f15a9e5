"""`judge hint`: graded hints from the YAML, one level at a time (judge/learner/hints.py)."""
from __future__ import annotations

import dataclasses

import pytest
from click.testing import CliRunner

from judge.cli.commands import main
from judge.base.errors import ConfigError
from judge.learner.hints import hint


def test_levels(judge):
    problem = judge.problem("patchify")
    levels = len(problem.hints)
    assert levels >= 3
    first = hint(problem)
    assert first.level == 1 and first.text == problem.hints[0].strip()
    assert first.lines()[-1] == "more: judge hint patchify --level 2"
    last = hint(problem, levels)
    assert last.last and "(the key idea)" in last.lines()[0]
    assert "def " not in last.text                       # names the idea, gives no code
    for bad in (0, levels + 1):
        with pytest.raises(ConfigError, match=f"hint levels 1 to {levels}"):
            hint(problem, bad)
    with pytest.raises(ConfigError, match="no hints"):
        hint(dataclasses.replace(problem, hints=()))


def test_cli(repo):
    runner = CliRunner()
    result = runner.invoke(main, ["--problems-dir", str(repo), "hint", "patchify", "--level", "2"])
    assert result.exit_code == 0 and result.output.startswith("hint 2 of ")
    bad = runner.invoke(main, ["--problems-dir", str(repo), "hint", "patchify", "--level", "99"])
    assert bad.exit_code == 2 and "--level 99" in bad.output


def test_hint_remembers_the_level_reached_and_records_it(repo, tmp_path, monkeypatch):
    from judge.learner.progress import ProgressStore

    monkeypatch.setenv("JUDGE_HOME", str(tmp_path))
    runner = CliRunner()

    def next_hint(*extra):
        result = runner.invoke(main, ["--problems-dir", str(repo), "hint", "patchify", *extra])
        assert result.exit_code == 0, result.output
        return result.output.splitlines()[0]

    from judge.model.problem import load_problem

    levels = len(load_problem(repo, "patchify").hints)
    assert next_hint().startswith("hint 1 of ")
    assert next_hint().startswith("hint 2 of ")
    assert next_hint("--level", "1").startswith("hint 1 of ")   # looking back keeps the level reached
    assert next_hint().startswith("hint 3 of ")
    for _ in range(levels):
        last = next_hint()
    assert last.startswith(f"hint {levels} of {levels}")          # stays on the last one
    store = ProgressStore(tmp_path / "progress.sqlite3")
    assert store.hint_level("patchify") == levels
    assert [e[3] for e in store.events("patchify", "hint")][:4] == ["1", "2", "1", "3"]
