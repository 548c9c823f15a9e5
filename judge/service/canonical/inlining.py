"""Helpers inlined: which module-level functions may be (one `return` at most, at the end; plain
parameters), and which call of one a statement makes where the helper's body can be put before it."""
from __future__ import annotations

import ast

from judge.service.canonical.trees import drop_strings, walk_outside_scopes


def inlinable(function: ast.FunctionDef) -> bool:
    """One `return` at most, as the last statement; plain parameters; nothing that binds names elsewhere."""
    a = function.args
    if function.decorator_list or a.vararg or a.kwarg or a.kwonlyargs:
        return False
    body = drop_strings(function.body)
    for node in ast.walk(ast.Module(body, [])):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal,
                             ast.Yield, ast.YieldFrom, ast.Await)):
            return False
        if isinstance(node, ast.Return) and node is not body[-1]:
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == function.name:
            return False                    # recursive
    return bool(body)


def helper_call(statement: ast.stmt, helpers: dict[str, ast.FunctionDef], caller: str | None) -> ast.Call | None:
    """The first call of a helper that `statement` makes where its body can be put before the statement."""
    if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Expr)):
        parts = [statement]
    elif isinstance(statement, ast.If):
        parts = [statement.test]
    elif isinstance(statement, (ast.For, ast.AsyncFor)):
        parts = [statement.iter]
    else:
        return None
    for part in parts:
        for node in walk_outside_scopes(part):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers \
                    and node.func.id != caller and not any(isinstance(a, ast.Starred) for a in node.args) \
                    and all(k.arg for k in node.keywords):
                helper = helpers[node.func.id]
                params = [a.arg for a in helper.args.posonlyargs + helper.args.args]
                named = {k.arg for k in node.keywords}
                if len(node.args) > len(params) or named - set(params):
                    continue
                missing = set(params[len(node.args):]) - named
                if len(missing) > len(helper.args.defaults) or (missing and missing - set(
                        params[len(params) - len(helper.args.defaults):])):
                    continue
                return node
    return None
