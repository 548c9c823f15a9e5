"""Printed text read as values, rounding as tolerance, and values as YAML inputs."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from judge.importers.deepml.values import NotData, Precision, differs, input_spec, tokens, value_tokens


def _values(text: str) -> list:
    return [t.value for t in tokens(text)]


@pytest.mark.parametrize("text", [
    "[1, 2]", "[1 2]", "array([1, 2])", "tensor([1., 2.])", "[np.int64(1), np.int64(2)]",
    "(array([1, 2]), )", "[[1.\n  2.]]", "tensor([1, 2], dtype=torch.int32)",
])
def test_containers_spelling_is_not_part_of_the_value(text):
    assert _values(text) == [1.0, 2.0]


def test_words_that_hold_digits_are_not_numbers_and_booleans_none_and_infinities_are():
    assert _values("float64 loss_2: True, None, -inf, 1e-05") == [1.0, None, float("-inf"), 1e-05]


def test_a_printed_number_stands_for_anything_that_rounds_to_it():
    assert differs(tokens("[0.5445, 1.0]"), tokens("[0.54453, 1.]")) is None
    assert differs(tokens("0.123"), tokens("0.124")) is None            # one unit of the last place
    assert "value 1" in differs(tokens("0.123"), tokens("0.125"))
    assert "value 3" in differs(tokens("[0, 1, 1]"), tokens("[0, 1, 0]"))   # integers are exact
    assert "2 values against 3" in differs(tokens("[1, 2]"), tokens("[1, 2, 3]"))
    assert differs(tokens("-1"), tokens("None")) is not None            # a sentinel is not a missing value


def test_a_value_reads_as_its_printing_would():
    value = {"w": np.array([[1.5, 2.0]]), "n": 3, "ok": True, "name": "loss 0.25"}
    assert [t.value for t in value_tokens(value)] == [1.5, 2.0, 3.0, 1.0, 0.25]


def test_precision_gives_half_a_unit_of_the_last_place():
    assert Precision(decimals=3).tolerance()[1] == pytest.approx(5e-4)
    assert Precision(digits=3).tolerance()[0] == pytest.approx(5e-3)
    assert Precision().tolerance() == (1e-5, 1e-8)


def test_values_the_yaml_holds_exactly_become_inputs():
    assert input_spec([[1, 2], [3, 4]]) == [[1, 2], [3, 4]]
    assert input_spec(np.float64(0.5)) == 0.5
    assert input_spec(np.array([[1.5, 2.0]], dtype=np.float32)) == \
        {"literal": [[1.5, 2.0]], "dtype": "float32", "library": "numpy"}
    assert input_spec(np.ones((1000, 1000))) == \
        {"full": {"shape": [1000, 1000], "value": 1.0}, "dtype": "float64", "library": "numpy"}
    assert input_spec(torch.tensor([1, 2])) == {"literal": [1, 2], "dtype": "int64", "library": "torch"}
    assert input_spec({"sigma": 1.0, "mask": np.array([True])}) == \
        {"mapping": {"sigma": 1.0, "mask": {"literal": [True], "dtype": "bool", "library": "numpy"}}}


@pytest.mark.parametrize("value, why", [
    ((4, 2), "tuple"),
    ({1: "a"}, "keys are not all strings"),
    ([np.zeros(2)], "holding arrays"),
    (torch.zeros(2, requires_grad=True), "requires grad"),
    (np.zeros(2, dtype=np.uint32), "dtype uint32"),
    (len, "builtin_function_or_method"),
])
def test_values_it_cannot_hold_say_why(value, why):
    spec = input_spec(value)
    assert isinstance(spec, NotData) and why in spec.why
