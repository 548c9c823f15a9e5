"""One submission value (judge.base.submission): a file or a text, decoded once, one size limit; and one
`Judge.submit` that every caller judges through."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from judge.base.errors import ConfigError, NotSourceText
from judge.base.submission import MAX_SOURCE_BYTES, Submission, decode_source
from problemsets import REPO

LATIN1 = "# -*- coding: latin-1 -*-\nNAME = 'café'\n"


def test_a_file_is_decoded_as_python_reads_it(tmp_path):
    declared = tmp_path / "latin.py"
    declared.write_bytes(LATIN1.encode("latin-1"))
    assert Submission.from_file(declared).source == LATIN1
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbfx = 1\n")
    assert Submission.from_file(bom).source == "x = 1\n"
    second_line = tmp_path / "second.py"
    second_line.write_bytes(b"#!/usr/bin/env python\n# coding: cp1252\nQ = '\x93'\n")
    assert "\u201c" in Submission.from_file(second_line).source
    # A coding line only counts on line 1 or 2, as in Python.
    assert decode_source(b"x = 1\n\n# coding: latin-1\n") == "x = 1\n\n# coding: latin-1\n"


@pytest.mark.parametrize("data, message", [
    (b"x = '\xe9'\n", r"not utf-8 text \(byte 5\)"),
    (b"# coding: no-such-codec\nx = 1\n", "cannot be decoded"),
])
def test_a_file_that_is_not_text_is_one_line_naming_it(tmp_path, data, message):
    path = tmp_path / "bad.py"
    path.write_bytes(data)
    with pytest.raises(ConfigError, match=message) as raised:
        Submission.from_file(path)
    assert "bad.py" in str(raised.value) and "\n" not in str(raised.value)


def test_provenance_of_a_file_and_of_a_text(tmp_path):
    path = tmp_path / "work" / "mine.py"
    path.parent.mkdir()
    path.write_text("x = 1\n")
    made = Submission.from_file(path, label="mine.py")
    assert (made.label, made.origin, made.directory, made.path, made.filename) == \
        ("mine.py", str(path.resolve()), path.parent.resolve(), path.resolve(), "mine.py")
    text = Submission.from_text("x = 1\n", "editor.py", origin="web editor")
    assert (text.origin, text.directory, text.path, text.filename) == ("web editor", None, None, "editor.py")
    assert Submission.from_text("x", "a.py").origin == "a.py"
    with pytest.raises(AttributeError):
        text.source = "y"


def test_one_size_limit_for_files_and_texts(tmp_path):
    big = tmp_path / "big.py"
    big.write_bytes(b"#" * (MAX_SOURCE_BYTES + 1))
    with pytest.raises(ConfigError, match=f"limit is {MAX_SOURCE_BYTES}"):
        Submission.from_file(big)
    Submission.from_text("é" * (MAX_SOURCE_BYTES // 2))
    with pytest.raises(ConfigError, match=f"limit is {MAX_SOURCE_BYTES}"):
        Submission.from_text("é" * (MAX_SOURCE_BYTES // 2 + 1))   # counted in UTF-8 bytes


def test_the_source_size_limit_is_defined_once():
    from judge.service.config import ServiceConfig
    from judge.warm import client

    assert ServiceConfig.max_source_bytes == MAX_SOURCE_BYTES
    assert client.MAX_FILE_BYTES > MAX_SOURCE_BYTES  # the warm client sends more: the server says it is too large
    defined = [p.relative_to(REPO).as_posix() for p in (REPO / "judge").rglob("*.py")
               if re.search(r"^\s*MAX_SOURCE_BYTES\s*=", p.read_text(encoding="utf-8"), re.M)]
    assert defined == ["judge/base/submission.py"]


def test_the_warm_clients_bytes_are_decoded_as_the_normal_path_decodes_a_file(tmp_path):
    from judge.warm.client import read_file as _read

    declared = tmp_path / "latin.py"
    declared.write_bytes(LATIN1.encode("latin-1"))
    assert Submission.from_bytes(_read(str(declared)), "latin.py").source == Submission.from_file(declared).source \
        == LATIN1
    bad = tmp_path / "bad.py"
    bad.write_bytes(b"x = '\xe9'\n")
    with pytest.raises(NotSourceText) as from_file:
        Submission.from_file(bad)
    with pytest.raises(NotSourceText) as from_bytes:
        Submission.from_bytes(_read(str(bad)), str(bad), path=bad)
    assert str(from_bytes.value) == str(from_file.value)


def _calls(path: Path, attr: str) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.lineno for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == attr]


def test_every_caller_judges_through_judge_submit():
    """Only `Judge.submit` judges a prepared problem directly: no face mixes record, origin and graded."""
    direct = {p.relative_to(REPO).as_posix(): lines for p in (REPO / "judge").rglob("*.py")
              if (lines := [n for n in _calls(p, "judge")
                            if "prepared" in p.read_text(encoding="utf-8").splitlines()[n - 1]])}
    assert set(direct) <= {"judge/judging/session.py"}, direct
    callers = {p.relative_to(REPO).as_posix() for p in (REPO / "judge").rglob("*.py")
               if any(".submit(" in line and "pool.submit" not in line
                      for line in p.read_text(encoding="utf-8").splitlines())}
    assert {"judge/warm/server.py", "judge/web/routes/run.py", "judge/service/worker.py", "judge/judging/batch.py",
            "judge/notebook.py", "judge/judging/session.py"} <= callers


def test_the_submission_module_stays_light():
    """The warm client imports it on its tens-of-milliseconds path: standard library, no tokenize."""
    import subprocess
    import sys

    code = ("import sys, judge.base.submission as s; s.decode_source(b'x = 1\\n'); "
            "print(sorted(m for m in ('tokenize', 'dataclasses', 'numpy', 'torch', 'click') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr


def test_a_file_that_cannot_be_read_is_one_unreadable_line_naming_it_and_nothing_waits(tmp_path):
    """Gone, a broken link, a folder, a FIFO (which a plain open would wait on for a writer): `Unreadable`, a
    ConfigError (exit 2 for `judge run`, a judge_error row for `judge grade`), never an OSError."""
    import os

    from judge.base.errors import Unreadable

    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "dangling.py").symlink_to(tmp_path / "gone.py")
    (tmp_path / "folder.py").mkdir()
    for name, message in [("missing.py", "submission file not found"),
                          ("dangling.py", "a broken symbolic link: what it names is gone"),
                          ("folder.py", "is a directory"), ("pipe.py", "not a regular file")]:
        with pytest.raises(Unreadable) as raised:
            Submission.from_file(tmp_path / name)
        assert raised.value.detail.startswith(message) and name in str(raised.value)
        assert "\n" not in str(raised.value)
    big = tmp_path / "sparse.py"
    with big.open("wb") as handle:
        handle.truncate(8 * MAX_SOURCE_BYTES)   # said from its size, not read
    with pytest.raises(ConfigError, match=f"is {8 * MAX_SOURCE_BYTES} bytes; the limit") as raised:
        Submission.from_file(big)
    assert not isinstance(raised.value, Unreadable)   # too large is the file's content: a compile error in a batch
