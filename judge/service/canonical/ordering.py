"""The order of independent statements: each block in one order, a statement only after those it depends on
(a name written then read, read then written, or written twice, and side effects among themselves), the
smallest of the free ones first by its own tokens with names made alike."""
from __future__ import annotations

import ast
import builtins
import heapq
import keyword
import re

from judge.service.canonical.trees import EXITS, MAX_BLOCK

KEPT = frozenset(keyword.kwlist) | frozenset(dir(builtins))


def independent_order(body: list[ast.stmt], modules: set[str]) -> list[ast.stmt]:
    if len(body) < 2 or len(body) > MAX_BLOCK:
        return body
    facts = [effects_of(s, modules) for s in body]
    after: list[set[int]] = [set() for _ in body]     # statement -> those that must come before it
    for j, (rj, wj, ej) in enumerate(facts):
        for i in range(j):
            ri, wi, ei = facts[i]
            if wi & (rj | wj) or ri & wj or (ei and ej) or isinstance(body[j], EXITS):
                after[j].add(i)
    keys = [sort_key(s) for s in body]
    waiting = [len(a) for a in after]
    needed_by: list[list[int]] = [[] for _ in body]
    for j, a in enumerate(after):
        for i in a:
            needed_by[i].append(j)
    free = [(keys[i], i) for i in range(len(body)) if not waiting[i]]
    heapq.heapify(free)
    out = []
    while free:
        _, i = heapq.heappop(free)
        out.append(body[i])
        for j in needed_by[i]:
            waiting[j] -= 1
            if not waiting[j]:
                heapq.heappush(free, (keys[j], j))
    return out if len(out) == len(body) else body


def effects_of(s: ast.stmt, modules: set[str]) -> tuple[set[str], set[str], bool]:
    """What `s` reads, what it writes (names; an object changed through a name counts as that name), and
    whether it has effects beyond them (calls for their effect, leaving the block, raising, asserting)."""
    reads, writes = set(), set()
    called = {id(n.value) for n in ast.walk(s) if isinstance(n, ast.Expr)}     # calls made for their effect
    for n in ast.walk(s):
        if isinstance(n, ast.Name):
            (writes if isinstance(n.ctx, (ast.Store, ast.Del)) else reads).add(n.id)
        elif isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, (ast.Store, ast.Del)):
            base = n.value
            while isinstance(base, (ast.Attribute, ast.Subscript)):
                base = base.value
            if isinstance(base, ast.Name):
                writes.add(base.id)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                and n.func.value.id not in modules and (id(n) in called or n.func.attr.endswith("_")):
            writes.add(n.func.value.id)     # x.append(...), x.add_(...): x changes
    if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
        reads.add(s.target.id)
    effect = isinstance(s, (ast.Expr, ast.Raise, ast.Assert, ast.Return, ast.Global, ast.Nonlocal, ast.Delete,
                            ast.Import, ast.ImportFrom)) \
        or any(isinstance(n, (*EXITS, ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal))
               for n in ast.walk(s))
    return reads, writes, effect


IDENTIFIER = re.compile(r"(?<![.\w])[A-Za-z_]\w*")


def sort_key(s: ast.stmt) -> str:
    """The statement as the report's tokens see it (names alike), which orders free statements."""
    return IDENTIFIER.sub(lambda m: m.group() if m.group() in KEPT else "V", ast.unparse(s))
