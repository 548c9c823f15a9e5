"""Splitting a Deep-ML test: setup for the judge, the call for the sandbox, rounding for the tolerance."""
from __future__ import annotations

import ast

import pytest

from judge.importers.deepml import split

LEARNER = frozenset({"f", "g", "Model"})


def test_the_setup_is_what_comes_before_the_first_use_of_the_learners_code():
    analysis = split.analyse("import numpy as np\nnp.random.seed(42)\na = np.ones(3)\nb = f(a)\nprint(g(b))", LEARNER)
    assert [ast.unparse(s) for s in analysis.setup] == ["import numpy as np", "np.random.seed(42)", "a = np.ones(3)"]
    assert analysis.seeds == ["np.random.seed(42)"]
    statements = split.renamed_call(analysis, {})
    assert split.call_source(analysis, statements, []) == "b = f(a)\ng(b)"


@pytest.mark.parametrize("printed, value, decimals", [
    ("np.round(f(x), 3)", "f(x)", 3),
    ("round(f(x), 4)", "f(x)", 4),
    ("round(f(x))", "f(x)", 0),
    ("f(x).round(2)", "f(x)", 2),
    ("np.round(f(x), 3).tolist()", "f(x)", 3),
    ("[round(v, 4) for v in f(x)]", "f(x)", 4),
    ("(round(f(x), 4), round(g(x), 2))", "(f(x), g(x))", 2),
    ("f(x).tolist()", "f(x).tolist()", None),      # no rounding: the call keeps its own conversion
    ("np.round(f(x), k)", "np.round(f(x), k)", None),   # places not a constant: left as written
])
def test_the_rounding_a_print_applies_is_taken_off_and_becomes_its_precision(printed, value, decimals):
    analysis = split.analyse(f"x = 1\nprint({printed})", LEARNER)
    assert analysis.printed[0].source == value
    assert analysis.printed[0].decimals == decimals


def test_an_f_strings_formatted_values_are_the_value_and_its_format_the_precision():
    analysis = split.analyse('m = Model()\nprint(f"mu={m.mu:.4f}, n={m.n}, s={m.s:.2e}")', LEARNER)
    shown = analysis.printed[0]
    assert shown.source == "(m.mu, m.n, m.s)"
    assert (shown.decimals, shown.digits) == (4, 3)


def test_the_test_as_written_keeps_each_printed_value_and_prints_it_as_before():
    analysis = split.analyse("x = 2\nprint(np.round(f(x), 3))\nprint(f'{g(x):.2f}', f(x))", LEARNER)
    written = split.instrumented(analysis)
    assert written.splitlines() == ["x = 2", "_printed_1 = f(x)", "print(np.round(_printed_1, 3))",
                                    "_printed_2 = (g(x), f(x))", "print(f'{_printed_2[0]:.2f}', _printed_2[1])"]


def test_several_prints_make_a_dict_of_values_by_print():
    analysis = split.analyse("m = Model(3)\nm.fit(1)\nprint(m.a)\nm.fit(2)\nprint(m.a)", LEARNER)
    text = split.call_source(analysis, split.renamed_call(analysis, {}), ["import numpy as np"])
    assert text.splitlines() == ["import numpy as np", "m = Model(3)", "m.fit(1)", "_printed_1 = m.a", "m.fit(2)",
                                 "_printed_2 = m.a", "{'print_1': _printed_1, 'print_2': _printed_2}"]


def test_arguments_the_judge_can_compute_are_named_after_their_parameters():
    analysis = split.analyse("print(f(np.array([[1, 2], [3, 4]]), 3, kind='rbf', data=[0.5] * 40))", LEARNER)
    signatures = split.signatures("def f(matrix, power, kind='x', data=None):\n    pass\n")
    taken = split.hoistable_arguments(analysis, signatures)
    assert [(ast.unparse(a.node), a.parameter) for a in taken] == [
        ("np.array([[1, 2], [3, 4]])", "matrix"), ("[0.5] * 40", "data")]   # short literals stay in the call
    renamed = {id(a.node): a.parameter for a in taken}
    text = split.call_source(analysis, split.renamed_call(analysis, renamed), [])
    assert text == "f(matrix, 3, kind='rbf', data=data)"


def test_arguments_that_use_what_the_call_computes_stay_in_it():
    analysis = split.analyse("m = Model()\nprint(f(m.weights * 2, np.zeros(3)))", LEARNER)
    taken = split.hoistable_arguments(analysis, {"f": ["w", "b"]})
    assert [ast.unparse(a.node) for a in taken] == ["np.zeros(3)"]


def test_free_names_leave_out_what_lambdas_and_comprehensions_bind():
    tree = ast.parse("y = [v * k for v in f(x)]\nz = sorted(y, key=lambda t: -t)\nw = y + q")
    assert split.free_names(tree.body, skip=LEARNER) == ["k", "x", "q"]


def test_learner_names_and_signatures_come_from_the_starter_and_the_reference():
    starter = "import numpy as np\nclass Model:\n    def __init__(self, size):\n        pass\n    def fit(self, X, y):\n        pass\n"
    assert split.learner_names(starter, "def helper():\n    pass\n", "not python (") == {"Model", "helper"}
    assert split.signatures(starter) == {"Model": ["size"], "fit": ["X", "y"]}


@pytest.mark.parametrize("code, reason", [
    ("print(f(1)", "not valid Python"),
    ("x = 1\nprint(x)", "calls none of the learner's"),
    ("y = f(1)", "prints nothing"),
    ("for i in range(2):\n    print(f(i))", "prints inside a block"),
])
def test_a_test_that_cannot_be_split_says_why(code, reason):
    with pytest.raises(split.Unsplittable, match=reason):
        split.analyse(code, LEARNER)
