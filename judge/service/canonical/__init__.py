"""The normal form of a submission's syntax tree: what the similarity report compares, so that the edits a
disguise makes in minutes change nothing.

`normalise(tree, roots)` rewrites a parsed module (never run) until these read alike:

- a helper extracted or inlined: every call of a module-level function with one `return`, at its end (or
  none), is replaced by the function's body, its names made its own, and its value put where the call was;
- loops and comprehensions: `xs = []` then `for ...: xs.append(e)` (with nested loops and an `if`) is the
  list comprehension, likewise a dict, a set and a running sum; `for s in items: if c: raise` is
  `if any(c for s in items): raise`; `sum([...])` is `sum(...)`; a comprehension over at most UNROLL
  literal items (a tuple, a list, `range(2)`) is written out item by item;
- dead code: statements after a `return`, `raise`, `break` or `continue`; `if False:`; statements that
  compute nothing kept (a bare name, an unused variable, `print(...)`); a final `return None`; functions
  no root reaches (roots: the starter code's definitions);
- temporaries: a name bound once to another name is that name; a value bound once and read once is
  written where it is read (so `t = a * b; return f(t)` is `return f(a * b)`); `a, b = x, y` is two
  assignments; a dict display's constant keys are sorted;
- the order of independent statements: each block is put in one order, a statement only after those it
  depends on (a name written then read, read then written, or written twice, and side effects among
  themselves), the smallest of the free ones first by its own tokens with names made alike.

Renaming, comments and layout are judge.service.similarity's: its tokens make names alike and drop
comments. Every rewrite is bounded (rounds, the size of what inlining may add), and a tree this cannot
rewrite is returned as it was: the report then compares what was written.

Each kind of rewrite is a module of this package: `inlining`, `loops` (loops and expressions in one
shape), `temporaries` (dead code and temporaries), `ordering`; `trees` is what they ask of a syntax tree.
This module runs them in turn.
"""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field

from judge.service.canonical.inlining import helper_call, inlinable
from judge.service.canonical.loops import Expressions, loops_as_comprehensions, split_tuple
from judge.service.canonical.ordering import independent_order
from judge.service.canonical.temporaries import computes_nothing, forward_values, unused_store
from judge.service.canonical.trees import (EXITS, blocks_of, drop_strings, load_counts, loaded_names, node_count,
                                           rename_names, replace_node, stored_names)

MAX_ROUNDS = 6              # of the temporaries and dead-code rewrites (each round removes something)
MAX_GROWTH = 4              # inlining stops once the tree is this many times its size (at most 2 x MAX_NODES)
MAX_NODES = 6_000           # a larger tree is compared as written: some rewrites are quadratic in its size
                            # (a 60-line solution has about 600 nodes)


def normalise(tree: ast.Module, roots: frozenset[str] | None = None) -> ast.Module:
    """`tree` in normal form (a new tree); `roots`: the functions the program is entered by (None: all)."""
    if node_count(tree) > MAX_NODES:
        return tree                 # a file this large is compared as written (the rewrites are quadratic)
    try:
        out = _Normaliser(copy.deepcopy(tree), roots).run()
        ast.fix_missing_locations(out)
        ast.unparse(out)        # what the tokens are read from: a rewrite that broke it is not used
        return out
    except (RecursionError, MemoryError, ValueError, TypeError, AttributeError):
        return tree


@dataclass
class _Normaliser:
    tree: ast.Module
    roots: frozenset[str] | None
    inlined: set[str] = field(default_factory=set)
    counter: int = 0
    room: int = 0                   # nodes inlining may still add

    def run(self) -> ast.Module:
        self.tree.body = drop_strings(self.tree.body)
        self.modules = {alias.asname or alias.name.split(".")[0] for s in self.tree.body if isinstance(s, (ast.Import, ast.ImportFrom))
                        for alias in s.names}
        helpers = {s.name: s for s in self.tree.body if isinstance(s, ast.FunctionDef) and inlinable(s)}
        size = node_count(self.tree)
        self.room = min(2 * MAX_NODES, max(2_000, MAX_GROWTH * size)) - size     # nodes inlining may add
        for function in self._functions():
            # Loops become comprehensions first: a helper called in a loop is then called in a list
            # written out item by item, as a file that calls it twice has it.
            function.body = self._shapes(function.body)
        for function in self._functions():
            self._inline(function, helpers)
        self._drop_unreached()
        for function in self._functions():
            function.body = self._block(function.body, function)
        return self.tree

    def _functions(self) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
        found = []
        for s in self.tree.body:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append(s)
            elif isinstance(s, ast.ClassDef):
                found += [m for m in s.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
        return found

    # ---------------------------------------------------------------- helpers inlined
    def _inline(self, function: ast.AST, helpers: dict[str, ast.FunctionDef]) -> None:
        for _ in range(MAX_ROUNDS):
            changed = False
            for block in blocks_of(function):
                index = 0
                while index < len(block):
                    statement = block[index]
                    call = helper_call(statement, helpers, getattr(function, "name", None))
                    if call is None or self.room <= 0:
                        index += 1
                        continue
                    before, value = self._expand(call, helpers[call.func.id])
                    # Mutual recursion, or a helper called a thousand times, would grow the tree without end.
                    self.room -= node_count(value) + sum(node_count(s) for s in before)
                    replace_node(statement, call, value)
                    block[index:index] = before
                    self.inlined.add(call.func.id)
                    changed = True
                    index += len(before)
            if not changed:
                return

    def _expand(self, call: ast.Call, helper: ast.FunctionDef) -> tuple[list[ast.stmt], ast.expr]:
        """The statements a call of `helper` stands for, and its value."""
        self.counter += 1
        params = [a.arg for a in helper.args.posonlyargs + helper.args.args]
        local = params + sorted(stored_names(helper.body) - set(params))
        fresh = {name: f"_{helper.name}_{self.counter}_{name}" for name in local}
        given: dict[str, ast.expr] = dict(zip(params, call.args))
        given.update({k.arg: k.value for k in call.keywords if k.arg})
        defaults = dict(zip(params[len(params) - len(helper.args.defaults):], helper.args.defaults))
        before: list[ast.stmt] = []
        for name in params:
            value = given.get(name, defaults.get(name))
            before.append(ast.copy_location(ast.Assign([ast.Name(fresh[name], ast.Store())], copy.deepcopy(value)),
                                            call))
        body = [rename_names(copy.deepcopy(s), fresh) for s in drop_strings(helper.body)]
        value: ast.expr = ast.Constant(None)
        if body and isinstance(body[-1], ast.Return):
            value = body.pop().value or ast.Constant(None)
        return before + body, value

    def _drop_unreached(self) -> None:
        """Module-level functions that nothing the program is entered by reaches."""
        defined = {s.name: s for s in self.tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        if self.roots is None:
            start = [n for n in defined if n not in self.inlined]
        else:
            start = [n for n in defined if n in self.roots]
        others = [s for s in self.tree.body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
        reached, todo = set(), list(start) + sorted(loaded_names(others) & set(defined))
        while todo:
            name = todo.pop()
            if name in reached:
                continue
            reached.add(name)
            todo += sorted((loaded_names([defined[name]]) & set(defined)) - reached)
        if self.roots is not None and not reached & self.roots:
            return                      # not the starter's program at all: nothing is known to be dead
        self.tree.body = [s for s in self.tree.body
                          if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) or s.name in reached]

    # ---------------------------------------------------------------- a function's blocks
    def _block(self, body: list[ast.stmt], function: ast.AST) -> list[ast.stmt]:
        for _ in range(MAX_ROUNDS):
            before = ast.dump(ast.Module(body, []))
            body = self._shapes(body)
            function.body = body = self._dead(body, function, top=True)
            function.body = body = forward_values(body, function)
            if ast.dump(ast.Module(body, [])) == before:
                break
        return self._ordered(body)

    def _shapes(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """Loops as comprehensions, short literal comprehensions written out, tuple assignments split (every
        block, innermost first)."""
        out = []
        for s in drop_strings(body):
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(s, name, None)
                if isinstance(inner, list) and inner and not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                              ast.ClassDef)):
                    setattr(s, name, self._shapes(inner))
            for handler in getattr(s, "handlers", []):
                handler.body = self._shapes(handler.body)
            out.append(s)
        out = loops_as_comprehensions(out)
        done = []
        for s in out:
            s = Expressions().visit(s)
            done += split_tuple(s)
        return done

    def _dead(self, body: list[ast.stmt], function: ast.AST, top: bool = False,
              loads: dict[str, int] | None = None) -> list[ast.stmt]:
        loads = load_counts(function) if loads is None else loads
        out: list[ast.stmt] = []
        for s in body:
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(s, name, None)
                if isinstance(inner, list) and inner and not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                              ast.ClassDef)):
                    setattr(s, name, self._dead(inner, function, loads=loads) or [ast.Pass()])
            for handler in getattr(s, "handlers", []):
                handler.body = self._dead(handler.body, function, loads=loads) or [ast.Pass()]
            if isinstance(s, (ast.If, ast.While)) and isinstance(s.test, ast.Constant):
                if isinstance(s, ast.While) and not s.test.value:
                    continue
                if isinstance(s, ast.If):
                    out += [x for x in (s.body if s.test.value else s.orelse) if not isinstance(x, ast.Pass)]
                    if any(isinstance(x, EXITS) for x in out):
                        break
                    continue
            if isinstance(s, ast.Pass) or computes_nothing(s) or unused_store(s, loads, self.modules):
                continue
            out.append(s)
            if isinstance(s, EXITS):
                break                   # nothing after it runs
        if out and top and isinstance(out[-1], ast.Return) \
                and (out[-1].value is None or (isinstance(out[-1].value, ast.Constant) and out[-1].value.value is None)):
            out.pop()
        return out

    def _ordered(self, body: list[ast.stmt]) -> list[ast.stmt]:
        for s in body:
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(s, name, None)
                if isinstance(inner, list) and inner and not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                              ast.ClassDef)):
                    setattr(s, name, self._ordered(inner))
            for handler in getattr(s, "handlers", []):
                handler.body = self._ordered(handler.body)
        return independent_order(body, self.modules)
