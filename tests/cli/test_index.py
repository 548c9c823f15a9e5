"""judge/cli/index.py: `judge list` from an index on disk, the CLI's output exactly, current after any edit."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge.cli import index
from problemsets import copy_problems

PROBE = ("import sys\nfrom judge.cli.index import try_list\ncode = try_list(sys.argv[1:])\n"
         "heavy = sorted(m for m in ('yaml', 'numpy', 'torch', 'click', 'judge.model.problem') if m in sys.modules)\n"
         "print(json.dumps({'code': code, 'heavy': heavy}), file=sys.stderr)\n")


@pytest.fixture()
def problem_set(tmp_path) -> Path:
    return copy_problems(tmp_path / "set", "patchify", "info_nce", "clip_loss")


def _run(args: list[str], cwd: Path, env: dict, fast: bool) -> tuple[int, str, str]:
    code = (f"import json\n{PROBE}" if fast else
            "import sys\nfrom judge.cli.commands import main\nsys.exit(main(sys.argv[1:], standalone_mode=True))")
    result = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=300)
    return result.returncode, result.stdout, result.stderr


@pytest.fixture()
def env(tmp_path) -> dict:
    return {**os.environ, "JUDGE_CACHE_DIR": str(tmp_path / "cache"), "JUDGE_HOME": str(tmp_path / "home"),
            "COLUMNS": "100"}


def _fast(args, cwd, env) -> tuple[str, str, dict]:
    code, out, err = _run(args, cwd, env, fast=True)
    assert code == 0, err
    *lines, probe = err.splitlines()
    return out, "\n".join(lines), json.loads(probe)


@pytest.mark.parametrize("args", [["list"], ["list", "--json"], ["list", "--tag", "vision"],
                                  ["list", "--difficulty=medium", "--json"], ["list", "--status", "solved"]])
def test_the_index_lists_what_the_cli_lists_without_yaml_or_numpy(problem_set, env, args) -> None:
    _, want, want_err = _run(args, problem_set, env, fast=False)
    first, first_err, built = _fast(args, problem_set, env)      # builds the index
    again, again_err, hit = _fast(args, problem_set, env)        # answers from it
    assert first == again == want and first_err == again_err == want_err.rstrip("\n")
    assert built["code"] == 0 and hit["heavy"] == []


def test_an_edit_a_new_problem_and_a_broken_file_show_at_once(problem_set, env) -> None:
    _fast(["list"], problem_set, env)
    path = problem_set / "problems" / "patchify.yaml"
    path.write_text(path.read_text().replace("title: Patchify a Batch of Images", "title: Patches, Renamed"))
    out, _, _ = _fast(["list", "--json"], problem_set, env)
    assert [i["title"] for i in json.loads(out) if i["id"] == "patchify"] == ["Patches, Renamed"]
    (problem_set / "problems" / "info_nce.yaml").write_text("id: info_nce\ntitle: [unclosed\n")
    out, err, _ = _fast(["list", "--json"], problem_set, env)
    assert "info_nce" not in [i["id"] for i in json.loads(out)]
    assert err.startswith("warning: info_nce is not listed:")
    _, want, want_err = _run(["list", "--json"], problem_set, env, fast=False)
    assert out == want and err == want_err.rstrip("\n")


def test_a_damaged_index_is_rebuilt_and_options_it_does_not_know_go_to_the_cli(problem_set, env, tmp_path) -> None:
    out, _, _ = _fast(["list", "--json"], problem_set, env)
    stored = tmp_path / "cache" / index.NAME
    for damage in ("{not json", json.dumps({"format": 1, "key": "x"}),
                   json.dumps({**json.loads(stored.read_text()), "items": [{"id": 3}]})):
        stored.write_text(damage)
        assert _fast(["list", "--json"], problem_set, env)[0] == out
    for args in (["list", "--unit", "5.5"], ["list", "--tag", "unit-5.5"], ["list", "--tag=unit-5.5"],
                 ["list", "--difficulty", "impossible"], ["list", "--help"],
                 ["--problems-dir", ".", "list"], ["show", "patchify"], ["list", "--status", "new", "--status", "new"]):
        assert index.try_list(args) is None


def test_a_units_tag_lists_the_units_problems_whichever_path_answers(repo, env) -> None:
    """`judge list --tag unit-5.5` means the unit's own list (its extras too), as `judge unit` counts it."""
    program = subprocess.run([sys.executable, "-m", "judge", "list", "--tag", "unit-5.5", "--json"], cwd=repo,
                             env=env, capture_output=True, text=True, timeout=300)
    _, want, _ = _run(["list", "--tag", "unit-5.5", "--json"], repo, env, fast=False)
    assert program.returncode == 0 and program.stdout == want
    assert {"patchify", "unpatchify"} <= {item["id"] for item in json.loads(want)}
