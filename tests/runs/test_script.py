"""The script driver: a test's call written as Python over the solution's names (judge.runs.script)."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from judge.runs import script

SOLUTION = '''\
import numpy as np

def pair(a, b):
    return a + b, a * b

class Counter:
    def __init__(self):
        self.n = 0
    def add(self, k):
        self.n += k
        return self

def noise(n):
    return np.random.rand(n)
'''


def _driver(source: str = SOLUTION, required: tuple[str, ...] = ("pair",)):
    namespace: dict = {"__name__": "solution"}
    exec(compile(source, "solution.py", "exec"), namespace)
    return script.attach(namespace, required)


def test_a_call_is_statements_over_the_solutions_names_and_the_inputs_ending_in_its_value():
    call = _driver()
    assert call("s, p = pair(a, b)\nc = Counter().add(s).add(p)\nc.n", {"a": 2, "b": 3}) == 11


def test_nothing_one_call_assigns_is_seen_by_the_next():
    call = _driver()
    call("leftover = 1\nleftover", {})
    with pytest.raises(NameError):
        call("leftover", {})


@pytest.mark.parametrize("value, canonical", [
    ([5, 10], np.array([5, 10])),
    ((1.5, 2), np.array([1.5, 2.0])),
    ([(1, 2), (3, 4)], np.array([[1, 2], [3, 4]])),
    ([np.zeros(2), np.ones(2)], np.array([[0.0, 0.0], [1.0, 1.0]])),
    (np.float64(0.25), 0.25),
    (np.int64(-1), -1),
    ({3, 1, 2}, np.array([1, 2, 3])),
    ({0: "a", "k": None}, {"0": "a", "k": None}),
    ([], np.zeros((0,))),
    ([np.zeros(2), 1.0], [np.zeros(2), 1.0]),
])
def test_values_are_made_canonical_whatever_container_held_them(value, canonical):
    got = _driver().canonical(value)
    if isinstance(canonical, np.ndarray):
        assert isinstance(got, np.ndarray) and got.shape == canonical.shape and np.array_equal(got, canonical)
    elif isinstance(canonical, list):
        assert isinstance(got, list) and len(got) == len(canonical)
    else:
        assert got == canonical and type(got) is type(canonical)


def test_a_tensor_becomes_an_array_and_an_object_the_text_it_prints_without_address_or_module():
    call = _driver()
    assert np.array_equal(call.canonical(torch.tensor([1.0, 2.0], requires_grad=True) * 2), np.array([2.0, 4.0]))
    assert call("Counter()", {}) == "<Counter object>"


def test_each_call_starts_from_the_same_random_states_unless_it_seeds():
    call = _driver()
    first = call("noise(3)", {})
    np.random.seed(123)
    assert np.array_equal(call("noise(3)", {}), first)
    np.random.seed(7)
    want = np.random.rand(3)
    assert np.array_equal(call("np.random.seed(7)\nnoise(3)", {}), want)


def test_a_file_without_the_entry_point_fails_each_call_saying_so():
    call = _driver(required=("missing",))
    with pytest.raises(NameError, match="does not define `missing`"):
        call("pair(1, 2)", {})


def test_the_program_is_the_solution_with_the_driver_after_it_and_its_lines_unchanged():
    program = script.program_source(SOLUTION, ("pair",))
    assert program.startswith(SOLUTION.rstrip())
    namespace: dict = {}
    exec(compile(program, "solution.py", "exec"), namespace)
    assert np.array_equal(namespace[script.ENTRY]("pair(a, 2)", {"a": 3}), np.array([5, 6]))
    assert "_tensor_judge_driver" not in namespace


def test_a_call_must_end_with_an_expression():
    with pytest.raises(SyntaxError, match="ends with an expression"):
        _driver()("x = pair(1, 2)", {})
