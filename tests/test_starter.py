"""`judge start`: starter files that never overwrite work and judge as "not attempted yet" (judge/starter.py)."""
from __future__ import annotations

import ast
import dataclasses

import pytest
from click.testing import CliRunner

from judge.cli import main
from judge.errors import ConfigError
from judge.progress import ProgressStore
from judge.render import render_text
from judge.starter import default_path, starter_source, write_starter
from judge.verdict import NOT_ATTEMPTED


@pytest.fixture
def patchify(judge):
    return judge.problem("patchify")


def test_starter_holds_the_contract_and_raises_not_implemented(patchify):
    text = starter_source(patchify, "mine.py")
    tree = ast.parse(text)
    doc = ast.get_docstring(tree)
    assert patchify.title in doc and "row-major" in doc and patchify.signature in doc
    assert "judge run patchify mine.py --examples" in doc and "judge hint patchify" in doc
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert [f.name for f in functions] == [patchify.entry_point]
    assert [a.arg for a in functions[0].args.args] == list(patchify.args)
    assert any(isinstance(n, ast.Raise) and "NotImplementedError" in ast.unparse(n) for n in ast.walk(functions[0]))


def test_starter_from_signature_when_the_yaml_has_none(patchify):
    bare = dataclasses.replace(patchify, starter="")
    tree = ast.parse(starter_source(bare))
    [fn] = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert fn.name == "patchify" and "NotImplementedError" in ast.unparse(fn)
    broken = dataclasses.replace(patchify, starter="", signature="not a signature")
    with pytest.raises(ConfigError, match="signature"):
        starter_source(broken)


def test_docstring_survives_quotes_and_backslashes(patchify):
    tricky = dataclasses.replace(patchify, statement='Use """triple""" quotes and a \\ backslash.\\n')
    doc = ast.get_docstring(ast.parse(starter_source(tricky)))
    assert 'Use """triple""" quotes and a \\ backslash.\\n' in doc


def test_write_refuses_to_overwrite_without_force(patchify, tmp_path):
    target = tmp_path / "sol.py"
    assert write_starter(patchify, target) == target
    target.write_text("my precious work")
    with pytest.raises(ConfigError, match="already exists; pass --force"):
        write_starter(patchify, target)
    assert target.read_text() == "my precious work"
    write_starter(patchify, target, force=True)
    assert "NotImplementedError" in target.read_text()


def test_paths(patchify, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert default_path(patchify, None).name == "patchify.py"
    assert default_path(patchify, tmp_path) == tmp_path / "patchify.py"
    assert write_starter(patchify, tmp_path / "x.py").is_file()
    # A missing folder is most likely a typo: refused, nothing created.
    with pytest.raises(ConfigError, match="folder .*new/dir does not exist"):
        write_starter(patchify, tmp_path / "new" / "dir" / "x.py")
    assert not (tmp_path / "new").exists()
    with pytest.raises(ConfigError, match="ending in .py"):
        write_starter(patchify, tmp_path / "notes.txt")


def test_untouched_starter_is_not_attempted_and_not_recorded(judge, patchify, tmp_path, monkeypatch):
    store = ProgressStore(tmp_path / "p.sqlite3")
    monkeypatch.setattr(judge, "progress", store)
    path = write_starter(patchify, tmp_path / "patchify.py")
    report = judge.run("patchify", path)
    assert not report.accepted and report.not_attempted
    assert all(t.not_attempted and t.message.startswith(NOT_ATTEMPTED) for t in report.tests)  # raises-checks too
    text = render_text(report)
    assert text.startswith("not attempted yet") and "Traceback" not in text
    assert store.attempts() == []
    examples = judge.run("patchify", path, examples_only=True)
    assert examples.not_attempted


def test_cli_start(tmp_path, repo):
    runner = CliRunner()
    target = tmp_path / "p.py"
    first = runner.invoke(main, ["--problems-dir", str(repo), "start", "patchify", str(target)])
    assert first.exit_code == 0 and f"wrote {target}" in first.output
    assert f"judge run patchify {target} --examples" in first.output
    again = runner.invoke(main, ["--problems-dir", str(repo), "start", "patchify", str(target)])
    assert again.exit_code == 2 and "already exists; pass --force" in again.output
    forced = runner.invoke(main, ["--problems-dir", str(repo), "start", "patchify", str(target), "--force"])
    assert forced.exit_code == 0
    unknown = runner.invoke(main, ["--problems-dir", str(repo), "start", "nope", str(tmp_path / "n.py")])
    assert unknown.exit_code == 2 and "unknown problem id" in unknown.output
