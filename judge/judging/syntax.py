"""Editing a solution's syntax tree one node at a time: the nodes a mutation may touch (never a docstring,
an f-string, an annotation or an error's message), where each stands, the source with one node replaced
(the tree left as it was), and a node's code as a report quotes it.
"""
from __future__ import annotations

import ast


def node_places(tree: ast.AST) -> dict[int, tuple[ast.AST, str, int | None]]:
    """Where each node stands: (parent, field, index in the field's list or None)."""
    places = {}
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if isinstance(value, ast.AST):
                places[id(value)] = (parent, field, None)
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        places[id(item)] = (parent, field, i)
    return places


def unparsed_with(tree: ast.AST, place, node: ast.AST, replacement) -> str | None:
    """The source of `tree` with `node` replaced, the tree left as it was; None when it cannot stand there."""
    parent, field, i = place
    if i is None:
        if isinstance(replacement, list):
            return None
        setattr(parent, field, ast.fix_missing_locations(replacement))
        try:
            return ast.unparse(tree)
        finally:
            setattr(parent, field, node)
    items = getattr(parent, field)
    if isinstance(replacement, list):
        if not isinstance(node, ast.stmt):
            return None
        stand_in = [ast.fix_missing_locations(r) for r in replacement]
    else:
        stand_in = [ast.fix_missing_locations(replacement)]
    items[i:i + 1] = stand_in
    try:
        return ast.unparse(tree)
    finally:
        items[i:i + len(stand_in)] = [node]


def mutable_nodes(tree: ast.AST) -> list[ast.AST]:
    """The nodes operators may touch, in the order of `ast.walk`."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.JoinedStr, ast.arg)) and node is not None:
            skip.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.Raise) and node.exc is not None:
            # The message is wording; the class (a Name) stays mutable through the Raise itself.
            for arg in getattr(node.exc, "args", []):
                skip.update(id(n) for n in ast.walk(arg))
        if isinstance(node, (ast.FunctionDef, ast.Module, ast.ClassDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.update(id(n) for n in ast.walk(first))
        if isinstance(node, ast.FunctionDef) and node.returns is not None:
            skip.update(id(n) for n in ast.walk(node.returns))
    return [n for n in ast.walk(tree) if id(n) not in skip]


def code_of(node) -> str:
    if isinstance(node, list):
        return "; ".join(ast.unparse(n) for n in node) or "pass"
    if isinstance(node, ast.FunctionDef):
        return "; ".join(ast.unparse(n) for n in node.body[:3]) + " ..."
    if isinstance(node, ast.If):
        return f"if {ast.unparse(node.test)}: ..."
    if isinstance(node, ast.arguments):
        return ast.unparse(node)
    return ast.unparse(node)


def shorten(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."
