"""`judge start`: starter files that never overwrite work and judge as "not attempted yet" (judge/authoring/starter.py)."""
from __future__ import annotations

import ast
import dataclasses

import pytest
from click.testing import CliRunner

from judge.cli.commands import main
from judge.base.errors import ConfigError
from judge.learner.progress import ProgressStore
from judge.render import render_text
from judge.authoring.starter import default_path, starter_source, write_starter
from judge.base.outcomes import NOT_ATTEMPTED


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


def test_an_input_template_is_the_first_example_and_judge_run_takes_it(judge, patchify, tmp_path):
    """`judge start ID --input FILE`: the example's inputs, editable, in the format `--input` reads."""
    import yaml

    from judge.authoring.starter import input_template

    text = input_template(patchify)
    assert text.startswith("# Your own input for patchify: judge run patchify")
    assert yaml.safe_load(text) == {"images": {"arange": [1, 1, 4, 4]}, "patch_height": 2, "patch_width": 2}
    case = tmp_path / "case.yaml"
    case.write_text(text.replace("patch_width: 2", "patch_width: 4"))  # a learner's edit
    solution = tmp_path / "mine.py"
    solution.write_text((judge.root / "submissions/patchify/accepted/reshape_permute.py").read_text())
    report = judge.run_on_input("patchify", solution, case)
    assert report.accepted and [t.name for t in report.tests] == ["case"]


def test_cli_start_input_writes_only_the_input_unless_a_path_is_given(tmp_path, repo, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    only = runner.invoke(main, ["--problems-dir", str(repo), "start", "patchify", "--input", "case.yaml"])
    assert only.exit_code == 0, only.output
    assert "wrote case.yaml (the example tiny_index_image's input: edit it)" in only.output
    assert "judge run patchify YOUR_FILE.py --input case.yaml" in only.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["case.yaml"]
    again = runner.invoke(main, ["--problems-dir", str(repo), "start", "patchify", "--input", "case.yaml"])
    assert again.exit_code == 2 and "case.yaml: already exists; pass --force" in again.output
    both = runner.invoke(main, ["--problems-dir", str(repo), "start", "patchify", "p.py", "--input", "c2.yaml"])
    assert both.exit_code == 0 and "judge run patchify p.py --input c2.yaml" in both.output
    assert (tmp_path / "p.py").exists() and (tmp_path / "c2.yaml").exists()
    wrong = runner.invoke(main, ["--problems-dir", str(repo), "start", "patchify", "--input", "case.txt"])
    assert wrong.exit_code == 2 and "give a path ending in .yaml" in wrong.output
