"""Loading trusted code (references, traps) never writes into the problem set."""
from __future__ import annotations

import sys

import pytest

from judge.base.errors import ConfigError
from judge.model.solution import load_function


def test_loading_a_reference_writes_no_bytecode_even_when_python_would(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)   # as for a user without PYTHONDONTWRITEBYTECODE
    reference = tmp_path / "hidden_tests" / "double" / "reference.py"
    reference.parent.mkdir(parents=True)
    reference.write_text("def double(x):\n    return 2 * x\n")
    assert load_function(reference, "double")(21) == 42
    assert sorted(p.name for p in reference.parent.iterdir()) == ["reference.py"]


def test_a_syntax_error_names_the_file_and_line(tmp_path):
    reference = tmp_path / "reference.py"
    reference.write_text("def double(x):\n    return 2 *\n")
    with pytest.raises(ConfigError, match="syntax error") as caught:
        load_function(reference, "double")
    assert caught.value.file == reference and caught.value.line == 2
