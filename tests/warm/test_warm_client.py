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


def test_switched_off_or_without_a_private_directory_the_client_steps_aside_and_starts_nothing(tmp_path,
                                                                                              monkeypatch):
    import os

    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    solution = tmp_path / "s.py"
    solution.write_text("def patchify(*a):\n    return {}\n")
    monkeypatch.setenv("JUDGE_NO_WARM", "1")
    assert client.try_run(["run", "patchify", str(solution)]) is None
    assert not (tmp_path / f"tensor-judge-{os.geteuid()}").exists()  # nothing started, nothing made
    monkeypatch.delenv("JUDGE_NO_WARM")
    (tmp_path / f"tensor-judge-{os.geteuid()}").mkdir(mode=0o755)  # open to others: never used
    (tmp_path / f"tensor-judge-{os.geteuid()}").chmod(0o755)
    assert client.try_run(["run", "patchify", str(solution)]) is None
    assert os.listdir(tmp_path / f"tensor-judge-{os.geteuid()}") == []


def test_the_color_option_is_taken_too():
    assert parse(["run", "patchify", "a.py", "--color", "always"]) == RunArgs(None, "patchify", "a.py", color="always")
    assert parse(["run", "patchify", "a.py", "--color=never"]) == RunArgs(None, "patchify", "a.py", color="never")
    assert parse(["run", "patchify", "a.py", "--color", "pink"]) is None  # click's message


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
