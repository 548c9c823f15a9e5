"""Dead code and temporaries: statements that compute nothing, values stored and never read, and names
bound once put where they are read (a name bound to another name is that name; a value bound once and read
once is written where it is read)."""
from __future__ import annotations

import ast

from judge.service.canonical.trees import (MAX_BLOCK, load_counts, loaded_names, replace_node, store_counts,
                                           stored_names, substitute, walk_outside_scopes)


def computes_nothing(s: ast.stmt) -> bool:
    if not isinstance(s, ast.Expr):
        return False
    if isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name) and s.value.func.id == "print":
        return True
    return not any(isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)) for n in ast.walk(s.value))


def unused_store(s: ast.stmt, loads: dict[str, int], modules: set[str]) -> bool:
    """An assignment to names only, none of them ever read, whose value changes nothing in place."""
    if isinstance(s, ast.Assign):
        targets = s.targets
    elif isinstance(s, (ast.AugAssign, ast.AnnAssign)) and s.value is not None:
        targets = [s.target]
    else:
        return False
    names = []
    for t in targets:
        for n in ast.walk(t):
            if isinstance(n, (ast.Attribute, ast.Subscript, ast.Starred)):
                return False
            if isinstance(n, ast.Name):
                names.append(n.id)
    if not names or any(loads.get(n, 0) for n in names) or set(names) & modules:
        return False
    # x.add_(1) and friends change a tensor in place: that assignment does something
    return not any(isinstance(n, ast.Attribute) and n.attr.endswith("_") and not n.attr.startswith("_")
                   for n in ast.walk(s.value))


def forward_values(body: list[ast.stmt], function: ast.AST) -> list[ast.stmt]:
    """Names bound once to a name, and values bound once and read once, put where they are read.

    Each statement's reads and writes are counted once and kept up to date as statements change, so a block
    costs about its size times the number of candidates, not a walk of the rest of the block for each."""
    if len(body) > MAX_BLOCK:
        return body
    stores, loads = store_counts(function), load_counts(function)
    params = {a.arg for a in ast.walk(function) if isinstance(a, ast.arg)} if function is not None else set()
    reads = [load_counter(s) for s in body]
    writes = [stored_names([s]) for s in body]
    after: dict[str, int] = {}
    for counter in reads[1:]:
        for name, n in counter.items():
            after[name] = after.get(name, 0) + n

    def recount(j: int) -> None:
        for name, n in reads[j].items():
            after[name] -= n
        reads[j] = load_counter(body[j])
        for name, n in reads[j].items():
            after[name] = after.get(name, 0) + n

    def drop(i: int) -> None:
        del body[i], reads[i], writes[i]
        if i < len(body):
            for name, n in reads[i].items():
                after[name] -= n

    index = 0
    while index < len(body):
        s = body[index]
        name = s.targets[0].id if isinstance(s, ast.Assign) and len(s.targets) == 1 \
            and isinstance(s.targets[0], ast.Name) else None
        if name is None or stores.get(name) != 1 or name in params or loads.get(name, 0) != after.get(name, 0):
            index += 1
            if index < len(body):
                for key, n in reads[index].items():
                    after[key] -= n
            continue
        value_reads = loaded_names([s.value])
        later = range(index + 1, len(body))
        if isinstance(s.value, (ast.Name, ast.Constant)):
            if not any(value_reads & writes[j] for j in later):
                for j in later:
                    if reads[j].get(name):
                        substitute(body[j], name, s.value)
                        recount(j)
                drop(index)
                continue
        elif loads.get(name) == 1:
            where = next(j for j in later if reads[j].get(name))
            target = body[where]
            if not any(value_reads & writes[j] for j in range(index + 1, where)) and loads_in_header(target, name) \
                    and not (value_reads & writes[where] and not isinstance(target, (ast.Assign, ast.AugAssign,
                                                                                     ast.AnnAssign, ast.Return))):
                put_in_header(target, name, s.value)
                recount(where)
                drop(index)
                continue
        index += 1
        if index < len(body):
            for key, n in reads[index].items():
                after[key] -= n
    return body


def load_counter(node: ast.AST) -> dict[str, int]:
    counts: dict[str, int] = {}
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            counts[n.id] = counts.get(n.id, 0) + 1
    return counts


def loads_in_header(s: ast.stmt, name: str) -> bool:
    """Whether `s` reads `name` outside its inner blocks and outside any lambda or comprehension."""
    parts = header_of(s)
    return sum(1 for p in parts for n in walk_outside_scopes(p)
               if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)) == 1


def header_of(s: ast.stmt) -> list[ast.AST]:
    if isinstance(s, (ast.If, ast.While)):
        return [s.test]
    if isinstance(s, (ast.For, ast.AsyncFor)):
        return [s.iter]
    if isinstance(s, (ast.With, ast.AsyncWith)):
        return [item.context_expr for item in s.items]
    if isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Expr, ast.Raise, ast.Assert)):
        return [s]
    return []


def put_in_header(s: ast.stmt, name: str, value: ast.expr) -> None:
    """`value` where `s` reads `name` (moved, not copied: its statement is dropped)."""
    for part in header_of(s):
        for node in list(walk_outside_scopes(part)):
            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
                replace_node(s, node, value)
                return
