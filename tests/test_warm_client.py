"""The `judge run` side of the warm judge: which command lines it takes, and that it falls back."""
from __future__ import annotations

import pytest

from judge.warm import client
from judge.warm.client import RunArgs, parse


def test_plain_judge_run_command_lines_are_taken():
    assert parse(["run", "patchify", "a.py"]) == RunArgs(None, "patchify", "a.py")
    assert parse(["run", "patchify", "a.py", "--json", "-v", "--examples"]) == \
        RunArgs(None, "patchify", "a.py", as_json=True, verbose=True, examples_only=True)
    assert parse(["--problems-dir", "ps", "run", "--verbose", "patchify", "a.py"]) == \
        RunArgs("ps", "patchify", "a.py", verbose=True)
    assert parse(["--problems-dir=ps", "run", "patchify", "a.py"]) == RunArgs("ps", "patchify", "a.py")


@pytest.mark.parametrize("argv", [
    [], ["list"], ["run"], ["run", "patchify"], ["run", "patchify", "a.py", "b.py"], ["run", "--help"],
    ["run", "patchify", "a.py", "-vv"], ["run", "patchify", "a.py", "--"], ["--problems-dir"],
    ["--version"], ["serve"], ["--problems-dir", "ps", "list"],
])
def test_anything_else_goes_to_the_normal_command_line(argv):
    assert parse(argv) is None


def test_without_a_server_or_when_switched_off_the_client_steps_aside(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    solution = tmp_path / "s.py"
    solution.write_text("def patchify(*a):\n    return {}\n")
    assert client.try_run(["run", "patchify", str(solution)]) is None  # no socket directory
    monkeypatch.setenv("JUDGE_NO_WARM", "1")
    assert client.try_run(["run", "patchify", str(solution)]) is None


def test_files_it_cannot_read_are_left_to_the_normal_path(tmp_path):
    """What it cannot send goes the normal way, which says why; what it sends is the file's bytes
    as they are (the server decodes them as `judge run` would, and sends back what is not text)."""
    assert client.read_file(str(tmp_path / "missing.py")) is None
    assert client.read_file(str(tmp_path)) is None
    (tmp_path / "big.py").write_bytes(b"#" * (client.MAX_FILE_BYTES + 1))
    assert client.read_file(str(tmp_path / "big.py")) is None
    (tmp_path / "latin1.py").write_bytes(b"# caf\xe9\n")
    assert client.read_file(str(tmp_path / "latin1.py")) == b"# caf\xe9\n"
    (tmp_path / "ok.py").write_text("x = 1\n")
    assert client.read_file(str(tmp_path / "ok.py")) == b"x = 1\n"
