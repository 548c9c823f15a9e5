"""judge/judging/wording.py: the words a mistake is said in, from the finding to the sentence."""
from __future__ import annotations

import numpy as np

from judge.judging.diagnose import Diagnosis
from judge.judging.wording import name_trap_relation, say_layouts, say_slices


def test_a_layout_is_said_in_every_way_it_is_true_sizeless_words_first() -> None:
    # A 2 x k grid read column-major interleaves its two halves: both are said, so that tests of other sizes
    # can agree on the words that do not depend on the size (judge.judging.explain.common_claim).
    said = say_layouts(np.arange(6).reshape(2, 3).T.reshape(-1))
    assert said[0].startswith("with the first half and the second half interleaved")
    assert any("column-major order" in s and "2 x 3 grid" in s for s in said)
    assert say_layouts(np.array([1, 0])) == ["with the two of every pair (2i, 2i + 1) swapped",
                                             "with the first one moved to the end (each other one a place earlier)",
                                             "with the last one moved to the front (each other one a place later)",
                                             "in reverse order"]


def test_a_rotation_of_any_length_is_named_with_its_shift() -> None:
    for m in (3, 7, 64):
        assert say_layouts(np.roll(np.arange(m), 1))[0] == \
            "with the last one moved to the front (each other one a place later)"
        assert say_layouts(np.roll(np.arange(m), m - 1))[0] == \
            "with the first one moved to the end (each other one a place earlier)"
        if m > 3:
            assert say_layouts(np.roll(np.arange(m), m // 2))[-1] == f"in an order rotated by {m // 2} positions"
    assert say_layouts(np.array([2, 0, 1, 3])) == []   # no known layout: a report says "in another order"


def test_slices_are_called_rows_columns_or_tokens_and_singular_for_one() -> None:
    assert say_slices(2, 0) == "rows" and say_slices(2, 1, 1) == "column"
    assert say_slices(3, 1) == "tokens (axis 1)"
    assert say_slices(4, 2, 1) == "slice along axis 2"


def test_a_relation_to_a_trap_is_said_of_the_known_mistakes_value() -> None:
    named = name_trap_relation(Diagnosis("negated", "is the expected value negated"))
    assert named.message == "is the known mistake's value negated" and not named.known
