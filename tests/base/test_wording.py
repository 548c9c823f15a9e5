"""judge/base/wording.py: kinds and types named as a person writes them (issue 12)."""
from __future__ import annotations

import numpy as np

from judge.base import encoding as wire
from judge.base.wording import a, type_name


def test_articles() -> None:
    assert a("int") == "an int"
    assert a("float") == "a float"
    assert a("None") == "None"
    assert a("object") == "an object"
    assert a("torch.Tensor") == "a torch.Tensor"


def test_type_names_drop_builtins() -> None:
    assert type_name(object) == "object"
    assert type_name(np.matrix) == "numpy.matrix"


def test_an_unreturnable_value_names_its_type_plainly() -> None:
    try:
        wire.encode({"x": object()}, 1 << 20)
    except wire.WireError as exc:
        assert "of type object" in str(exc) and "builtins" not in str(exc)
    else:
        raise AssertionError("an object() crossed the wire")
