"""judge/base/leaves.py: walking returned values, numeric views and number formats."""
from __future__ import annotations

import numpy as np

from judge.base.leaves import MISSING, all_leaves, fmt, fmt_entry, fmt_index, leaves, numeric, top_key


def test_leaves_pair_what_both_sides_have_and_all_leaves_mark_the_rest_missing():
    expected = {"loss": 1.0, "parts": [1, 2]}
    actual = {"loss": 2.0, "parts": [1], "debug": "x"}
    assert list(leaves(expected, actual)) == [("loss", 1.0, 2.0), ("parts[0]", 1, 1)]
    assert list(all_leaves(expected, actual)) == [("loss", 1.0, 2.0), ("parts[0]", 1, 1), ("parts[1]", 2, MISSING),
                                                  ("debug", MISSING, "x")]
    assert top_key("parts[1]") == "parts" and top_key("[0]") is None


def test_numeric_views_a_python_number_as_float_unless_asked_to_keep_its_kind():
    assert numeric(True).dtype == np.float64 and numeric(True, None).dtype == np.bool_
    assert numeric("text") is None


def test_formats_for_messages_and_for_tensor_entries():
    assert fmt(1 / 3) == "0.333333" and fmt_entry(1 / 3) == "0.3333"
    assert fmt_entry(np.bool_(True)) == "True" and fmt_entry(np.int64(7)) == "7"
    assert fmt_index((3,)) == "(3,)" and fmt_index((1, 2)) == "(1, 2)"
