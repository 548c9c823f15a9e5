"""judge/judging/syntax.py: one node of a syntax tree replaced at a time, the tree left as it was."""
from __future__ import annotations

import ast

from judge.judging.syntax import code_of, mutable_nodes, node_places, shorten, unparsed_with

SOURCE = '''
def f(x):
    """Sum of x."""
    if x is None:
        raise ValueError(f"no {x}")
    return x.sum(axis=0)
'''


def test_a_node_replaced_gives_the_new_source_and_leaves_the_tree_unchanged() -> None:
    tree = ast.parse(SOURCE)
    before = ast.unparse(tree)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "sum")
    changed = unparsed_with(tree, node_places(tree)[id(call)], call, ast.parse("x.mean(axis=0)", mode="eval").body)
    assert "return x.mean(axis=0)" in changed
    assert ast.unparse(tree) == before


def test_a_statement_list_cannot_stand_where_an_expression_does() -> None:
    tree = ast.parse(SOURCE)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "sum")
    assert unparsed_with(tree, node_places(tree)[id(call)], call, [ast.Pass()]) is None


def test_docstrings_f_strings_and_messages_are_not_mutable() -> None:
    tree = ast.parse(SOURCE)
    constants = [n.value for n in mutable_nodes(tree) if isinstance(n, ast.Constant)]
    assert "Sum of x." not in constants and "no " not in constants
    assert 0 in constants   # the axis is


def test_code_is_quoted_short() -> None:
    assert code_of(ast.parse("if x:\n    y = 1").body[0]) == "if x: ..."
    assert code_of([]) == "pass"
    assert shorten("a" * 100, 10) == "aaaaaaa..." and shorten("a  b") == "a b"
