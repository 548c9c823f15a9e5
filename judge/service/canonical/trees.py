"""What the normal form's rewrites ask of a syntax tree: the names a node reads and writes, how often each
is read or written in a function, the blocks of statements it holds, and moving or renaming nodes in place."""
from __future__ import annotations

import ast
import copy

MAX_BLOCK = 300             # statements in one block that temporaries and ordering are worked out for
EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp,
          ast.DictComp, ast.GeneratorExp)


def walk_outside_scopes(node: ast.AST):
    """Every node under `node` but those inside a lambda or a comprehension (they bind names of their own)."""
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        for child in ast.iter_child_nodes(current):
            if not isinstance(child, SCOPES):
                todo.append(child)


def replace_node(root: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for parent in ast.walk(root):
        for name, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, name, new)
                return
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is old:
                        value[i] = new
                        return


def rename_names(node: ast.AST, names: dict[str, str]) -> ast.AST:
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in names:
            n.id = names[n.id]
        elif isinstance(n, ast.arg) and n.arg in names:
            n.arg = names[n.arg]
    return node



def drop_strings(body: list[ast.stmt]) -> list[ast.stmt]:
    return [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                    and isinstance(s.value.value, (str, bytes)))]


def blocks_of(node: ast.AST):
    """Every list of statements under `node` (its body first), outside nested functions and classes."""
    todo = [node]
    while todo:
        current = todo.pop()
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(current, name, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                yield inner
                todo += [s for s in inner if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                 ast.ClassDef))]
        todo += getattr(current, "handlers", [])
        todo += getattr(current, "cases", [])


def stored_names(nodes: list[ast.AST]) -> set[str]:
    return {n.id for s in nodes for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def loaded_names(nodes: list[ast.AST]) -> set[str]:
    return {n.id for s in nodes for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def count_loads(nodes: list[ast.AST], name: str) -> int:
    return sum(1 for s in nodes for n in ast.walk(s)
               if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load))


def load_counts(function: ast.AST) -> dict[str, int]:
    counts: dict[str, int] = {}
    for n in ast.walk(function):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            counts[n.id] = counts.get(n.id, 0) + 1
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            for name in n.names:
                counts[name] = counts.get(name, 0) + 1      # written for someone else: kept
    return counts


def store_counts(function: ast.AST) -> dict[str, int]:
    counts: dict[str, int] = {}
    for n in ast.walk(function):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            counts[n.id] = counts.get(n.id, 0) + 1
        elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
            for t in ast.walk(n.target):
                if isinstance(t, ast.Name):
                    counts[t.id] = counts.get(t.id, 0) + 1      # bound once per item: never forwarded
    return counts


def node_count(node: ast.AST) -> int:
    return sum(1 for _ in ast.walk(node))


def substitute(node: ast.AST, name: str, value: ast.expr) -> ast.AST:
    class Put(ast.NodeTransformer):
        def visit_Name(self, n: ast.Name) -> ast.AST:
            return copy.deepcopy(value) if n.id == name and isinstance(n.ctx, ast.Load) else n

    return Put().visit(node)
