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
"""
from __future__ import annotations

import ast
import builtins
import copy
import heapq
import keyword
import re
from dataclasses import dataclass, field

UNROLL = 4                  # literal items a comprehension may have to be written out
MAX_ROUNDS = 6              # of the temporaries and dead-code rewrites (each round removes something)
MAX_GROWTH = 4              # inlining stops once the tree is this many times its size (at most 2 x MAX_NODES)
MAX_BLOCK = 300             # statements in one block that temporaries and ordering are worked out for
MAX_NODES = 6_000           # a larger tree is compared as written: some rewrites are quadratic in its size
                            # (a 60-line solution has about 600 nodes)
_KEPT = frozenset(keyword.kwlist) | frozenset(dir(builtins))
_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)


def normalise(tree: ast.Module, roots: frozenset[str] | None = None) -> ast.Module:
    """`tree` in normal form (a new tree); `roots`: the functions the program is entered by (None: all)."""
    if _size(tree) > MAX_NODES:
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
        self.tree.body = _drop_strings(self.tree.body)
        self.modules = {alias.asname or alias.name.split(".")[0] for s in self.tree.body if isinstance(s, (ast.Import, ast.ImportFrom))
                        for alias in s.names}
        helpers = {s.name: s for s in self.tree.body if isinstance(s, ast.FunctionDef) and _inlinable(s)}
        size = _size(self.tree)
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
            for block in _blocks(function):
                index = 0
                while index < len(block):
                    statement = block[index]
                    call = _helper_call(statement, helpers, getattr(function, "name", None))
                    if call is None or self.room <= 0:
                        index += 1
                        continue
                    before, value = self._expand(call, helpers[call.func.id])
                    # Mutual recursion, or a helper called a thousand times, would grow the tree without end.
                    self.room -= _size(value) + sum(_size(s) for s in before)
                    _replace_node(statement, call, value)
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
        local = params + sorted(_stored(helper.body) - set(params))
        fresh = {name: f"_{helper.name}_{self.counter}_{name}" for name in local}
        given: dict[str, ast.expr] = dict(zip(params, call.args))
        given.update({k.arg: k.value for k in call.keywords if k.arg})
        defaults = dict(zip(params[len(params) - len(helper.args.defaults):], helper.args.defaults))
        before: list[ast.stmt] = []
        for name in params:
            value = given.get(name, defaults.get(name))
            before.append(ast.copy_location(ast.Assign([ast.Name(fresh[name], ast.Store())], copy.deepcopy(value)),
                                            call))
        body = [_renamed(copy.deepcopy(s), fresh) for s in _drop_strings(helper.body)]
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
        reached, todo = set(), list(start) + sorted(_loaded(others) & set(defined))
        while todo:
            name = todo.pop()
            if name in reached:
                continue
            reached.add(name)
            todo += sorted((_loaded([defined[name]]) & set(defined)) - reached)
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
            function.body = body = _forward(body, function)
            if ast.dump(ast.Module(body, [])) == before:
                break
        return self._ordered(body)

    def _shapes(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """Loops as comprehensions, short literal comprehensions written out, tuple assignments split (every
        block, innermost first)."""
        out = []
        for s in _drop_strings(body):
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(s, name, None)
                if isinstance(inner, list) and inner and not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                              ast.ClassDef)):
                    setattr(s, name, self._shapes(inner))
            for handler in getattr(s, "handlers", []):
                handler.body = self._shapes(handler.body)
            out.append(s)
        out = _loops_as_comprehensions(out)
        done = []
        for s in out:
            s = _Expressions().visit(s)
            done += _split_tuple(s)
        return done

    def _dead(self, body: list[ast.stmt], function: ast.AST, top: bool = False,
              loads: dict[str, int] | None = None) -> list[ast.stmt]:
        loads = _load_counts(function) if loads is None else loads
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
                    if any(isinstance(x, _EXITS) for x in out):
                        break
                    continue
            if isinstance(s, ast.Pass) or _computes_nothing(s) or _unused_store(s, loads, self.modules):
                continue
            out.append(s)
            if isinstance(s, _EXITS):
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
        return _independent_order(body, self.modules)


# -------------------------------------------------------------------- inlining
def _inlinable(function: ast.FunctionDef) -> bool:
    """One `return` at most, as the last statement; plain parameters; nothing that binds names elsewhere."""
    a = function.args
    if function.decorator_list or a.vararg or a.kwarg or a.kwonlyargs:
        return False
    body = _drop_strings(function.body)
    for node in ast.walk(ast.Module(body, [])):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal,
                             ast.Yield, ast.YieldFrom, ast.Await)):
            return False
        if isinstance(node, ast.Return) and node is not body[-1]:
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == function.name:
            return False                    # recursive
    return bool(body)


def _helper_call(statement: ast.stmt, helpers: dict[str, ast.FunctionDef], caller: str | None) -> ast.Call | None:
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
        for node in _walk_outside_scopes(part):
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


def _walk_outside_scopes(node: ast.AST):
    """Every node under `node` but those inside a lambda or a comprehension (they bind names of their own)."""
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        for child in ast.iter_child_nodes(current):
            if not isinstance(child, _SCOPES):
                todo.append(child)


def _replace_node(root: ast.AST, old: ast.AST, new: ast.AST) -> None:
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


def _renamed(node: ast.AST, names: dict[str, str]) -> ast.AST:
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in names:
            n.id = names[n.id]
        elif isinstance(n, ast.arg) and n.arg in names:
            n.arg = names[n.arg]
    return node


# -------------------------------------------------------------------- loops and comprehensions
def _loops_as_comprehensions(body: list[ast.stmt]) -> list[ast.stmt]:
    if len(body) > MAX_BLOCK:
        return body
    out = list(body)
    index = 0
    while index < len(out):
        s = out[index]
        if isinstance(s, ast.For) and not s.orelse:
            made = _exit_loop(s)
            if made is not None:
                out[index] = made
            else:
                built = _built_by(s)
                if built is not None:
                    name, kind, element, generators = built
                    start = _initialised(out, index, name, kind)
                    if start is not None:
                        value = _comprehension(kind, element, generators, out[start].value)
                        out[index] = ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], value), s)
                        del out[start]
                        continue
        index += 1
    return out


def _exit_loop(loop: ast.For) -> ast.If | None:
    """`for t in it: if c: raise/return` as `if any(c for t in it): ...`."""
    body = _drop_strings(loop.body)
    if len(body) != 1 or not isinstance(body[0], ast.If) or body[0].orelse:
        return None
    inner = body[0]
    if not all(isinstance(x, (ast.Raise, ast.Return)) for x in inner.body[-1:]) or \
            _loaded(inner.body) & _stored([ast.Assign([loop.target], ast.Constant(0))]):
        return None
    test = ast.Call(ast.Name("any", ast.Load()), [ast.GeneratorExp(inner.test, [
        ast.comprehension(loop.target, loop.iter, [], 0)])], [])
    return ast.copy_location(ast.If(test, inner.body, []), loop)


def _built_by(loop: ast.For):
    """(name, kind, element, generators) when the loop only appends to (adds to, sets items of, sums into)
    one name, through nested loops and `if`s without `else`."""
    generators, node = [], loop
    while True:
        if isinstance(node, ast.For) and not node.orelse and not isinstance(node, ast.AsyncFor):
            generators.append(ast.comprehension(node.target, node.iter, [], 0))
        elif isinstance(node, ast.If) and not node.orelse and generators:
            generators[-1].ifs.append(node.test)
        else:
            break
        body = _drop_strings(node.body)
        if len(body) != 1:
            return None
        node = body[0]
    s = node
    if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Attribute) \
            and isinstance(s.value.func.value, ast.Name) and len(s.value.args) == 1 and not s.value.keywords:
        kind = {"append": "list", "add": "set"}.get(s.value.func.attr)
        if kind:
            return s.value.func.value.id, kind, s.value.args[0], generators
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Subscript) \
            and isinstance(s.targets[0].value, ast.Name):
        return s.targets[0].value.id, "dict", (s.targets[0].slice, s.value), generators
    if isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and isinstance(s.target, ast.Name):
        return s.target.id, "sum", s.value, generators
    return None


def _initialised(body: list[ast.stmt], loop_at: int, name: str, kind: str) -> int | None:
    """Where `name` is set empty (0 for a sum) before the loop, with nothing between touching it."""
    for index in range(loop_at - 1, -1, -1):
        s = body[index]
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and s.targets[0].id == name:
            v = s.value
            empty = {"list": isinstance(v, ast.List) and not v.elts,
                     "set": isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "set"
                     and not v.args,
                     "dict": isinstance(v, ast.Dict) and not v.keys,
                     "sum": isinstance(v, ast.Constant) and type(v.value) in (int, float)}[kind]
            element = body[loop_at]
            return index if empty and name not in _loaded([element.iter]) else None
        if name in _loaded([s]) | _stored([s]):
            return None
    return None


def _comprehension(kind: str, element, generators: list[ast.comprehension], start: ast.expr) -> ast.expr:
    if kind == "list":
        return ast.ListComp(element, generators)
    if kind == "set":
        return ast.SetComp(element, generators)
    if kind == "dict":
        return ast.DictComp(element[0], element[1], generators)
    total = ast.Call(ast.Name("sum", ast.Load()), [ast.GeneratorExp(element, generators)], [])
    if start.value == 0:
        return total
    return ast.BinOp(start, ast.Add(), total)


class _Expressions(ast.NodeTransformer):
    """`sum([...])` as `sum(...)`, `list(x for ...)` as `[x for ...]`, short literal comprehensions written
    out, a dict display's constant keys sorted."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and len(node.args) == 1 and not node.keywords:
            arg, name = node.args[0], node.func.id
            if name in ("sum", "any", "all", "min", "max", "tuple") and isinstance(arg, ast.ListComp):
                node.args[0] = ast.GeneratorExp(arg.elt, arg.generators)
            elif name == "list" and isinstance(arg, ast.GeneratorExp):
                return ast.ListComp(arg.elt, arg.generators)
            elif name == "set" and isinstance(arg, ast.GeneratorExp):
                return ast.SetComp(arg.elt, arg.generators)
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.Not):
            return node
        inner = node.operand
        if isinstance(inner, ast.UnaryOp) and isinstance(inner.op, ast.Not):
            return inner.operand
        # `not all(c ...)` is `any(not c ...)`
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "all" \
                and len(inner.args) == 1 and not inner.keywords:
            arg = inner.args[0]
            if isinstance(arg, (ast.GeneratorExp, ast.ListComp)):
                arg = type(arg)(ast.UnaryOp(ast.Not(), arg.elt), arg.generators)
            elif isinstance(arg, (ast.List, ast.Tuple)):
                arg = ast.List([ast.UnaryOp(ast.Not(), e) for e in arg.elts], ast.Load())
            else:
                return node
            return self.visit(ast.Call(ast.Name("any", ast.Load()), [arg], []))
        return node

    def _unrolled(self, node: ast.AST, make):
        self.generic_visit(node)
        items = _literal_items(node.generators)
        if items is None:
            return node
        target = node.generators[0].target.id
        return make([_substituted(copy.deepcopy(node.elt), target, item) for item in items])

    def visit_ListComp(self, node: ast.ListComp) -> ast.AST:
        return self._unrolled(node, lambda elts: ast.List(elts, ast.Load()))

    def visit_GeneratorExp(self, node: ast.GeneratorExp) -> ast.AST:
        return self._unrolled(node, lambda elts: ast.List(elts, ast.Load()))

    def visit_SetComp(self, node: ast.SetComp) -> ast.AST:
        return self._unrolled(node, lambda elts: ast.Set(elts))

    def visit_Dict(self, node: ast.Dict) -> ast.AST:
        self.generic_visit(node)
        if node.keys and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
            pairs = sorted(zip(node.keys, node.values), key=lambda kv: kv[0].value)
            node.keys, node.values = [k for k, _ in pairs], [v for _, v in pairs]
        return node


def _literal_items(generators: list[ast.comprehension]) -> list[ast.expr] | None:
    if len(generators) != 1 or generators[0].ifs or not isinstance(generators[0].target, ast.Name):
        return None
    it = generators[0].iter
    if isinstance(it, (ast.Tuple, ast.List)) and 0 < len(it.elts) <= UNROLL \
            and not any(isinstance(e, ast.Starred) for e in it.elts):
        return list(it.elts)
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and len(it.args) == 1 \
            and isinstance(it.args[0], ast.Constant) and type(it.args[0].value) is int \
            and 0 < it.args[0].value <= UNROLL:
        return [ast.Constant(i) for i in range(it.args[0].value)]
    return None


def _substituted(node: ast.AST, name: str, value: ast.expr) -> ast.AST:
    class Put(ast.NodeTransformer):
        def visit_Name(self, n: ast.Name) -> ast.AST:
            return copy.deepcopy(value) if n.id == name and isinstance(n.ctx, ast.Load) else n

    return Put().visit(node)


def _split_tuple(s: ast.stmt) -> list[ast.stmt]:
    """`a, b = x, y` as `a = x` and `b = y` when no value reads what the others bind."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Tuple) \
            and isinstance(s.value, ast.Tuple) and len(s.targets[0].elts) == len(s.value.elts) \
            and all(isinstance(t, ast.Name) for t in s.targets[0].elts) \
            and not any(isinstance(v, ast.Starred) for v in s.value.elts):
        names = {t.id for t in s.targets[0].elts}
        if len(names) == len(s.targets[0].elts) and not _loaded(s.value.elts) & names:
            return [ast.copy_location(ast.Assign([ast.Name(t.id, ast.Store())], v), s)
                    for t, v in zip(s.targets[0].elts, s.value.elts)]
    return [s]


# -------------------------------------------------------------------- dead code and temporaries
def _computes_nothing(s: ast.stmt) -> bool:
    if not isinstance(s, ast.Expr):
        return False
    if isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name) and s.value.func.id == "print":
        return True
    return not any(isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)) for n in ast.walk(s.value))


def _unused_store(s: ast.stmt, loads: dict[str, int], modules: set[str]) -> bool:
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


def _forward(body: list[ast.stmt], function: ast.AST) -> list[ast.stmt]:
    """Names bound once to a name, and values bound once and read once, put where they are read.

    Each statement's reads and writes are counted once and kept up to date as statements change, so a block
    costs about its size times the number of candidates, not a walk of the rest of the block for each."""
    if len(body) > MAX_BLOCK:
        return body
    stores, loads = _store_counts(function), _load_counts(function)
    params = {a.arg for a in ast.walk(function) if isinstance(a, ast.arg)} if function is not None else set()
    reads = [_load_counter(s) for s in body]
    writes = [_stored([s]) for s in body]
    after: dict[str, int] = {}
    for counter in reads[1:]:
        for name, n in counter.items():
            after[name] = after.get(name, 0) + n

    def recount(j: int) -> None:
        for name, n in reads[j].items():
            after[name] -= n
        reads[j] = _load_counter(body[j])
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
        value_reads = _loaded([s.value])
        later = range(index + 1, len(body))
        if isinstance(s.value, (ast.Name, ast.Constant)):
            if not any(value_reads & writes[j] for j in later):
                for j in later:
                    if reads[j].get(name):
                        _substituted(body[j], name, s.value)
                        recount(j)
                drop(index)
                continue
        elif loads.get(name) == 1:
            where = next(j for j in later if reads[j].get(name))
            target = body[where]
            if not any(value_reads & writes[j] for j in range(index + 1, where)) and _loads_in_header(target, name) \
                    and not (value_reads & writes[where] and not isinstance(target, (ast.Assign, ast.AugAssign,
                                                                                     ast.AnnAssign, ast.Return))):
                _put_in_header(target, name, s.value)
                recount(where)
                drop(index)
                continue
        index += 1
        if index < len(body):
            for key, n in reads[index].items():
                after[key] -= n
    return body


def _load_counter(node: ast.AST) -> dict[str, int]:
    counts: dict[str, int] = {}
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            counts[n.id] = counts.get(n.id, 0) + 1
    return counts


def _loads_in_header(s: ast.stmt, name: str) -> bool:
    """Whether `s` reads `name` outside its inner blocks and outside any lambda or comprehension."""
    parts = _header(s)
    return sum(1 for p in parts for n in _walk_outside_scopes(p)
               if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)) == 1


def _header(s: ast.stmt) -> list[ast.AST]:
    if isinstance(s, (ast.If, ast.While)):
        return [s.test]
    if isinstance(s, (ast.For, ast.AsyncFor)):
        return [s.iter]
    if isinstance(s, (ast.With, ast.AsyncWith)):
        return [item.context_expr for item in s.items]
    if isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Expr, ast.Raise, ast.Assert)):
        return [s]
    return []


def _put_in_header(s: ast.stmt, name: str, value: ast.expr) -> None:
    """`value` where `s` reads `name` (moved, not copied: its statement is dropped)."""
    for part in _header(s):
        for node in list(_walk_outside_scopes(part)):
            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
                _replace_node(s, node, value)
                return


# -------------------------------------------------------------------- independent statements in one order
def _independent_order(body: list[ast.stmt], modules: set[str]) -> list[ast.stmt]:
    if len(body) < 2 or len(body) > MAX_BLOCK:
        return body
    facts = [_effects(s, modules) for s in body]
    after: list[set[int]] = [set() for _ in body]     # statement -> those that must come before it
    for j, (rj, wj, ej) in enumerate(facts):
        for i in range(j):
            ri, wi, ei = facts[i]
            if wi & (rj | wj) or ri & wj or (ei and ej) or isinstance(body[j], _EXITS):
                after[j].add(i)
    keys = [_key(s) for s in body]
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


def _effects(s: ast.stmt, modules: set[str]) -> tuple[set[str], set[str], bool]:
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
        or any(isinstance(n, (*_EXITS, ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal))
               for n in ast.walk(s))
    return reads, writes, effect


_IDENTIFIER = re.compile(r"(?<![.\w])[A-Za-z_]\w*")


def _key(s: ast.stmt) -> str:
    """The statement as the report's tokens see it (names alike), which orders free statements."""
    return _IDENTIFIER.sub(lambda m: m.group() if m.group() in _KEPT else "V", ast.unparse(s))


# -------------------------------------------------------------------- names
def _drop_strings(body: list[ast.stmt]) -> list[ast.stmt]:
    return [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                    and isinstance(s.value.value, (str, bytes)))]


def _blocks(node: ast.AST):
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


def _stored(nodes: list[ast.AST]) -> set[str]:
    return {n.id for s in nodes for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _loaded(nodes: list[ast.AST]) -> set[str]:
    return {n.id for s in nodes for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _count_loads(nodes: list[ast.AST], name: str) -> int:
    return sum(1 for s in nodes for n in ast.walk(s)
               if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load))


def _load_counts(function: ast.AST) -> dict[str, int]:
    counts: dict[str, int] = {}
    for n in ast.walk(function):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            counts[n.id] = counts.get(n.id, 0) + 1
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            for name in n.names:
                counts[name] = counts.get(name, 0) + 1      # written for someone else: kept
    return counts


def _store_counts(function: ast.AST) -> dict[str, int]:
    counts: dict[str, int] = {}
    for n in ast.walk(function):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            counts[n.id] = counts.get(n.id, 0) + 1
        elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
            for t in ast.walk(n.target):
                if isinstance(t, ast.Name):
                    counts[t.id] = counts.get(t.id, 0) + 1      # bound once per item: never forwarded
    return counts


def _size(node: ast.AST) -> int:
    return sum(1 for _ in ast.walk(node))
