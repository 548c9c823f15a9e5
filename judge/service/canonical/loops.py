"""Loops and expressions in one shape: a loop that builds a list, a dict, a set or a running sum is the
comprehension, `for t in it: if c: raise` is `if any(...)`, `sum([...])` is `sum(...)`, a comprehension over
at most UNROLL literal items is written out, a dict display's constant keys are sorted, and `a, b = x, y` is
two assignments."""
from __future__ import annotations

import ast
import copy

from judge.service.canonical.trees import MAX_BLOCK, drop_strings, loaded_names, stored_names, substitute

UNROLL = 4                  # literal items a comprehension may have to be written out


def loops_as_comprehensions(body: list[ast.stmt]) -> list[ast.stmt]:
    if len(body) > MAX_BLOCK:
        return body
    out = list(body)
    index = 0
    while index < len(out):
        s = out[index]
        if isinstance(s, ast.For) and not s.orelse:
            made = exit_loop(s)
            if made is not None:
                out[index] = made
            else:
                built = built_by(s)
                if built is not None:
                    name, kind, element, generators = built
                    start = initialised(out, index, name, kind)
                    if start is not None:
                        value = comprehension_of(kind, element, generators, out[start].value)
                        out[index] = ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], value), s)
                        del out[start]
                        continue
        index += 1
    return out


def exit_loop(loop: ast.For) -> ast.If | None:
    """`for t in it: if c: raise/return` as `if any(c for t in it): ...`."""
    body = drop_strings(loop.body)
    if len(body) != 1 or not isinstance(body[0], ast.If) or body[0].orelse:
        return None
    inner = body[0]
    if not all(isinstance(x, (ast.Raise, ast.Return)) for x in inner.body[-1:]) or \
            loaded_names(inner.body) & stored_names([ast.Assign([loop.target], ast.Constant(0))]):
        return None
    test = ast.Call(ast.Name("any", ast.Load()), [ast.GeneratorExp(inner.test, [
        ast.comprehension(loop.target, loop.iter, [], 0)])], [])
    return ast.copy_location(ast.If(test, inner.body, []), loop)


def built_by(loop: ast.For):
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
        body = drop_strings(node.body)
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


def initialised(body: list[ast.stmt], loop_at: int, name: str, kind: str) -> int | None:
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
            return index if empty and name not in loaded_names([element.iter]) else None
        if name in loaded_names([s]) | stored_names([s]):
            return None
    return None


def comprehension_of(kind: str, element, generators: list[ast.comprehension], start: ast.expr) -> ast.expr:
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


class Expressions(ast.NodeTransformer):
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
        items = literal_items(node.generators)
        if items is None:
            return node
        target = node.generators[0].target.id
        return make([substitute(copy.deepcopy(node.elt), target, item) for item in items])

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


def literal_items(generators: list[ast.comprehension]) -> list[ast.expr] | None:
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



def split_tuple(s: ast.stmt) -> list[ast.stmt]:
    """`a, b = x, y` as `a = x` and `b = y` when no value reads what the others bind."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Tuple) \
            and isinstance(s.value, ast.Tuple) and len(s.targets[0].elts) == len(s.value.elts) \
            and all(isinstance(t, ast.Name) for t in s.targets[0].elts) \
            and not any(isinstance(v, ast.Starred) for v in s.value.elts):
        names = {t.id for t in s.targets[0].elts}
        if len(names) == len(s.targets[0].elts) and not loaded_names(s.value.elts) & names:
            return [ast.copy_location(ast.Assign([ast.Name(t.id, ast.Store())], v), s)
                    for t, v in zip(s.targets[0].elts, s.value.elts)]
    return [s]
