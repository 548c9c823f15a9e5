"""Mutants of a solution: small, realistic mistakes made in its syntax tree, as PIT and mutmut make them.

Each operator looks at one node of a solution's syntax tree and proposes
replacements, chosen for tensor code: an axis moved or a reduction made
global, a transpose or permute dropped or two of its axes swapped, the order
of a reshape's sizes, sum for mean and max for min, a temperature dropped or
multiplied instead of divided, a log-sum-exp shift dropped, `.detach()`
added or removed, sin for cos, float32 for float64, a slice or index off by
one, a validation check removed or weakened, an out-of-place operation made
in-place, a default argument changed. A mutant is the whole file again with
one replacement; `judge.authoring.gate` decides whether the problem's tests tell it
apart from a correct solution.

Making mutants runs nothing and is deterministic: the same source always
gives the same mutants, in the order of the file.
"""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from judge.judging.syntax import code_of, mutable_nodes, node_places, shorten, unparsed_with

# Method and function names whose integer arguments are axes.
AXIS_CALLS = frozenset({
    "sum", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "softmax", "log_softmax", "logsumexp",
    "cumsum", "flatten", "unsqueeze", "squeeze", "cat", "concat", "concatenate", "stack", "std", "var", "norm",
    "prod", "any", "all", "argsort", "sort", "gather", "index_select", "diagonal", "expand_dims", "roll",
    "repeat_interleave", "narrow", "unbind", "chunk", "split", "take_along_axis", "normalize", "cross_entropy",
    "cosine_similarity", "median", "nanmean", "nansum", "count_nonzero", "vector_norm", "linalg_norm",
})
# Reductions that become global without their axis.
REDUCTIONS = frozenset({"sum", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "logsumexp", "std",
                        "var", "prod", "norm", "median", "nanmean", "nansum"})
SWAPS = {"sum": "mean", "mean": "sum", "max": "min", "min": "max", "amax": "amin", "amin": "amax",
         "argmax": "argmin", "argmin": "argmax", "maximum": "minimum", "minimum": "maximum",
         "softmax": "log_softmax", "log_softmax": "softmax", "sin": "cos", "cos": "sin", "nansum": "nanmean",
         "nanmean": "nansum", "std": "var", "var": "std", "clamp_min": "clamp_max", "clamp_max": "clamp_min"}
TRIG = frozenset({"sin", "cos"})
TRANSPOSES = frozenset({"transpose", "swapaxes", "swapdims", "t", "permute", "movedim", "moveaxis"})
RESHAPES = frozenset({"reshape", "view", "unflatten"})
DTYPES = {"float64": "float32", "float32": "float64", "double": "float", "float": "double"}
# Tensor methods with an in-place twin (`x.add(y)` -> `x.add_(y)`).
INPLACE = frozenset({"add", "sub", "mul", "div", "clamp", "clamp_min", "clamp_max", "exp", "neg", "pow", "sqrt",
                     "abs", "masked_fill", "fill", "transpose", "unsqueeze", "squeeze", "t", "log", "sigmoid",
                     "softmax", "scatter", "index_fill", "copy", "normal", "zero"})
GRADIENT_STOPS = frozenset({"detach", "detach_", "numpy", "item"})
DATA_ATTRIBUTES = frozenset({"data"})
GUARD_OPS: dict[type, tuple[type, ...]] = {
    ast.Lt: (ast.LtE,), ast.LtE: (ast.Lt,), ast.Gt: (ast.GtE,), ast.GtE: (ast.Gt,),
    ast.NotEq: (ast.Eq, ast.Lt, ast.Gt), ast.Eq: (ast.NotEq,), ast.Is: (ast.IsNot,), ast.IsNot: (ast.Is,),
    ast.In: (ast.NotIn,), ast.NotIn: (ast.In,),
}
EXCEPTION_SWAP = {"ValueError": "TypeError", "TypeError": "ValueError"}


@dataclass(frozen=True)
class Mutant:
    """One file with one replacement."""

    index: int        # its place among the file's mutants
    operator: str     # the operator's name (`axis`, `guard`, ...)
    line: int         # the line of the replaced code in the original file
    before: str       # the replaced code, as Python
    after: str        # what replaced it
    source: str       # the whole mutated file

    @property
    def label(self) -> str:
        return f"line {self.line}: {shorten(self.before)} -> {shorten(self.after)} ({self.operator})"

    def to_json(self) -> dict:
        return {"operator": self.operator, "line": self.line, "before": self.before, "after": self.after}


@dataclass(frozen=True)
class Context:
    """What an operator may know of the file beyond the node: the framework and the array arguments."""

    framework: str = "torch"
    array_args: tuple[int, ...] = ()   # positions of the entry point's arguments that receive tensors
    entry_point: str = ""


# ---------------------------------------------------------------- operators
# Each takes (node, context) and yields replacement nodes (or, in place of a statement, a list
# of statements). They never change the node they are given.


def _name_of(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _int(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and _int(node.operand) is not None:
        return -_int(node.operand)
    return None


def _const(value: int | float) -> ast.expr:
    return ast.UnaryOp(ast.USub(), ast.Constant(-value)) if value < 0 else ast.Constant(value)


def _tidy(value: float) -> float:
    """A float made ten times larger or smaller, without the rounding of the product: 1e-06, not
    1.0000000000000002e-06 (the code a repair shows is the code a learner would write)."""
    return float(f"{value:.12g}")


def _with(call: ast.Call, **changes) -> ast.Call:
    new = copy.deepcopy(call)
    for key, value in changes.items():
        setattr(new, key, value)
    return new


def _receiver(call: ast.Call) -> ast.expr | None:
    """`x` of `x.method(...)`, or the first argument of `module.function(x, ...)`."""
    if isinstance(call.func, ast.Attribute):
        target = call.func.value
        if isinstance(target, ast.Name) and target.id in ("torch", "np", "numpy", "F", "math", "nn"):
            return call.args[0] if call.args else None
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and \
                target.value.id in ("torch", "np", "numpy"):   # torch.linalg.norm(x), np.linalg.norm(x)
            return call.args[0] if call.args else None
        return target
    return call.args[0] if call.args else None


def axis(node: ast.AST, ctx: Context) -> Iterator[ast.AST]:
    """An axis moved by one, a reduction made global or a global one along an axis, keepdim dropped."""
    if not isinstance(node, ast.Call) or _name_of(node) not in AXIS_CALLS:
        return
    name = _name_of(node)
    for i, kw in enumerate(node.keywords):
        value = _int(kw.value)
        if kw.arg in ("dim", "axis", "dims") and value is not None:
            for moved in (value + 1, value - 1):
                keywords = copy.deepcopy(node.keywords)
                keywords[i].value = _const(moved)
                yield _with(node, keywords=keywords)
            if name in REDUCTIONS:
                yield _with(node, keywords=[k for j, k in enumerate(copy.deepcopy(node.keywords)) if j != i])
        if kw.arg in ("keepdim", "keepdims") and isinstance(kw.value, ast.Constant) and kw.value.value is True:
            yield _with(node, keywords=[k for j, k in enumerate(copy.deepcopy(node.keywords)) if j != i])
    module_call = isinstance(node.func, ast.Attribute) and _receiver(node) is not node.func.value
    for i, arg in enumerate(node.args):
        value = _int(arg)
        if value is None:
            continue
        if module_call and i == 0:
            continue   # torch.sum(x, 1): the first argument is the tensor
        for moved in (value + 1, value - 1):
            args = copy.deepcopy(node.args)
            args[i] = _const(moved)
            yield _with(node, args=args)
        if name in REDUCTIONS and len(node.args) == i + 1:
            yield _with(node, args=copy.deepcopy(node.args[:i]))
    global_reduction = name in REDUCTIONS and len(node.args) == (1 if module_call else 0) \
        and not any(kw.arg in ("dim", "axis", "dims") for kw in node.keywords)
    if global_reduction:
        # A reduction over one axis where the global one belongs: the inverse of an axis dropped.
        keyword = "axis" if ctx.framework == "numpy" else "dim"
        for along in (0, -1):
            yield _with(node, keywords=copy.deepcopy(node.keywords) + [ast.keyword(keyword, _const(along))])


def transpose(node: ast.AST, ctx: Context) -> Iterator[ast.AST]:
    """A transpose or permute dropped, two of a permutation's axes swapped."""
    if isinstance(node, ast.Attribute) and node.attr in ("T", "mT") and isinstance(node.ctx, ast.Load):
        yield copy.deepcopy(node.value)
        return
    if not isinstance(node, ast.Call) or _name_of(node) not in TRANSPOSES:
        return
    receiver = _receiver(node)
    if receiver is not None:
        yield copy.deepcopy(receiver)
    if _name_of(node) == "permute" or (_name_of(node) == "transpose" and isinstance(node.func, ast.Attribute)
                                       and isinstance(node.func.value, ast.Name) and node.func.value.id == "np"):
        module_call = receiver is not None and isinstance(node.func, ast.Attribute) and receiver is not node.func.value
        yield from _swapped_sequence(node, skip_first=module_call)


def _swapped_sequence(node: ast.Call, skip_first: bool = False) -> Iterator[ast.Call]:
    """The call with two adjacent entries of its size or axis list swapped (given inline or as one tuple)."""
    args = node.args[1:] if skip_first else node.args
    offset = 1 if skip_first else 0
    if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
        items = args[0].elts
        for i in range(len(items) - 1):
            new = copy.deepcopy(node)
            seq = new.args[offset].elts
            seq[i], seq[i + 1] = seq[i + 1], seq[i]
            yield new
    elif len(args) >= 2:
        for i in range(len(args) - 1):
            new = copy.deepcopy(node)
            new.args[offset + i], new.args[offset + i + 1] = new.args[offset + i + 1], new.args[offset + i]
            yield new


def reshape(node: ast.AST, ctx: Context) -> Iterator[ast.AST]:
    """Two adjacent sizes of a reshape swapped (the order a flatten reads its axes in)."""
    if isinstance(node, ast.Call) and _name_of(node) in RESHAPES:
        module_call = isinstance(node.func, ast.Attribute) and _receiver(node) is not node.func.value
        yield from _swapped_sequence(node, skip_first=module_call)


def reduce(node: ast.AST, ctx: Context) -> Iterator[ast.AST]:
    """sum for mean, max for min, softmax for log_softmax, sin for cos (and back); a reduction mode."""
    if not isinstance(node, ast.Call):
        return
    name = _name_of(node)
    if name in SWAPS:
        new = copy.deepcopy(node)
        if isinstance(new.func, ast.Attribute):
            new.func.attr = SWAPS[name]
        else:
            new.func.id = SWAPS[name]
        yield new
    for i, kw in enumerate(node.keywords):
        if kw.arg == "reduction" and isinstance(kw.value, ast.Constant) and kw.value.value in ("mean", "sum"):
            keywords = copy.deepcopy(node.keywords)
            keywords[i].value = ast.Constant("sum" if kw.value.value == "mean" else "mean")
            yield _with(node, keywords=keywords)


def arithmetic(node: ast.AST, ctx: Context) -> Iterator[ast.AST]:
    """A division made a multiplication, a floor division or dropped (a temperature, a scale), + for - and back, a
    shift dropped."""
    if isinstance(node, ast.BinOp):
        left, right = copy.deepcopy(node.left), copy.deepcopy(node.right)
        if isinstance(node.op, ast.Div):
            yield ast.BinOp(left, ast.Mult(), right)
            yield copy.deepcopy(node.left)
            yield ast.BinOp(copy.deepcopy(node.left), ast.FloorDiv(), copy.deepcopy(node.right))
        elif isinstance(node.op, ast.Mult):
            yield ast.BinOp(left, ast.Div(), right)
        elif isinstance(node.op, ast.Add):
            yield ast.BinOp(left, ast.Sub(), right)
        elif isinstance(node.op, ast.Sub):
            yield ast.BinOp(left, ast.Add(), right)
            yield copy.deepcopy(node.left)
        elif isinstance(node.op, ast.FloorDiv):
            yield ast.BinOp(left, ast.Div(), right)
        elif isinstance(node.op, ast.Pow):
            yield copy.deepcopy(node.left)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and _int(node) is None \
            and not isinstance(node.operand, ast.Constant):
        yield copy.deepcopy(node.operand)
    elif isinstance(node, ast.Call) and _name_of(node) == "sqrt" and len(node.args) == 1:
        yield copy.deepcopy(node.args[0])


def gradient(node: ast.AST, ctx: Context) -> Iterator[ast.AST]:
    """`.detach()` / `.data` removed; a returned tensor detached (torch only)."""
    if isinstance(node, ast.Call) and _name_of(node) in ("detach", "detach_") and isinstance(node.func, ast.Attribute) \
            and not node.args:
        yield copy.deepcopy(node.func.value)
    elif isinstance(node, ast.Attribute) and node.attr in DATA_ATTRIBUTES and isinstance(node.ctx, ast.Load):
        yield copy.deepcopy(node.value)
    elif isinstance(node, ast.Return) and node.value is not None and ctx.framework == "torch":
        value = node.value
        if isinstance(value, ast.Dict):
            for i, item in enumerate(value.values):
                if isinstance(item, (ast.Constant, ast.JoinedStr)):
                    continue
                new = copy.deepcopy(node)
                new.value.values[i] = _detach(item)
                yield new
        elif not isinstance(value, (ast.Constant, ast.Tuple, ast.List, ast.JoinedStr)):
            yield ast.Return(_detach(value))


def _detach(value: ast.expr) -> ast.expr:
    return ast.Call(ast.Attribute(copy.deepcopy(value), "detach", ast.Load()), [], [])


def dtype(node: ast.AST, ctx: Context) -> Iterator[ast.AST]:
    """float64 for float32 and back (names, strings, `.double()`/`.float()`); a cast dropped."""
    if isinstance(node, ast.Attribute) and node.attr in ("float64", "float32") and isinstance(node.ctx, ast.Load):
        new = copy.deepcopy(node)
        new.attr = DTYPES[node.attr]
        yield new
    elif isinstance(node, ast.Constant) and node.value in ("float64", "float32"):
        yield ast.Constant(DTYPES[node.value])
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("double", "float") \
            and not node.args and not node.keywords:
        new = copy.deepcopy(node)
        new.func.attr = DTYPES[node.func.attr]
        yield new
        yield copy.deepcopy(node.func.value)


def index(node: ast.AST, ctx: Context) -> Iterator[ast.AST]:
    """A slice bound or an index off by one."""
    if not isinstance(node, ast.Subscript):
        return
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    for k, part in enumerate(parts):
        if isinstance(part, ast.Slice):
            for field in ("lower", "upper"):
                value = _int(getattr(part, field)) if getattr(part, field) is not None else None
                if value is None:
                    continue
                for moved in (value + 1, value - 1):
                    new = copy.deepcopy(node)
                    target = new.slice.elts[k] if isinstance(new.slice, ast.Tuple) else new.slice
                    setattr(target, field, None if moved == 0 and field == "lower" else _const(moved))
                    yield new
        else:
            value = _int(part)
            if value is None:
                continue
            for moved in (value + 1, value - 1):
                new = copy.deepcopy(node)
                if isinstance(new.slice, ast.Tuple):
                    new.slice.elts[k] = _const(moved)
                else:
                    new.slice = _const(moved)
                yield new


def constant(node: ast.AST, ctx: Context) -> Iterator[ast.AST]:
    """A number changed: an integer by one, a float ten times larger or smaller (an epsilon, a base, a factor)."""
    if not isinstance(node, ast.Constant) or isinstance(node.value, bool):
        return
    if type(node.value) is int:
        yield ast.Constant(node.value + 1)
        if node.value > 0:
            yield ast.Constant(node.value - 1)
    elif type(node.value) is float:
        yield ast.Constant(_tidy(node.value * 10) if node.value else 1.0)
        if node.value:
            yield ast.Constant(_tidy(node.value / 10))


def guard(node: ast.AST, ctx: Context) -> Iterator[ast.AST | list]:
    """A validation check removed, one of its conditions dropped, `or` made `and`, or its error's class changed."""
    if isinstance(node, ast.If) and _raises(node.body):
        yield [ast.Pass()] if not node.orelse else copy.deepcopy(node.orelse)
        test = node.test
        if isinstance(test, ast.BoolOp) and len(test.values) >= 2:
            for i in range(len(test.values)):
                rest = [copy.deepcopy(v) for j, v in enumerate(test.values) if j != i]
                new = copy.deepcopy(node)
                new.test = rest[0] if len(rest) == 1 else ast.BoolOp(copy.deepcopy(test.op), rest)
                yield new
            new = copy.deepcopy(node)
            new.test.op = ast.And() if isinstance(test.op, ast.Or) else ast.Or()
            yield new
    elif isinstance(node, ast.Assert):
        yield [ast.Pass()]
    elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name) \
            and node.exc.func.id in EXCEPTION_SWAP:
        new = copy.deepcopy(node)
        new.exc.func.id = EXCEPTION_SWAP[node.exc.func.id]
        yield new


def comparison(node: ast.AST, ctx: Context) -> Iterator[ast.AST]:
    """A comparison weakened or turned: `<` for `<=`, `!=` for `<` or `>`, `==` and `!=` for each other, `is` for
    `is not`."""
    if not isinstance(node, ast.Compare) or len(node.ops) != 1:
        return
    for replacement in GUARD_OPS.get(type(node.ops[0]), ()):
        new = copy.deepcopy(node)
        new.ops = [replacement()]
        yield new


def inplace(node: ast.AST, ctx: Context) -> Iterator[ast.AST]:
    """An out-of-place tensor operation made in-place (`.div(n)` -> `.div_(n)`), `x = x + y` made `x += y`."""
    if ctx.framework == "torch" and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in INPLACE and _receiver(node) is node.func.value:
        new = copy.deepcopy(node)
        new.func.attr += "_"
        yield new
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
            and isinstance(node.value, ast.BinOp) and isinstance(node.value.left, ast.Name) \
            and node.value.left.id == node.targets[0].id and not isinstance(node.value.op, ast.MatMult):
        yield ast.AugAssign(ast.Name(node.targets[0].id, ast.Store()), copy.deepcopy(node.value.op),
                            copy.deepcopy(node.value.right))


def statement(node: ast.AST, ctx: Context) -> Iterator[list]:
    """A statement that only acts (a call for its effect, a reassignment) removed."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        yield [ast.Pass()]


def defaults(node: ast.AST, ctx: Context) -> Iterator[ast.AST]:
    """A default argument changed: a number by ten or one, a flag flipped."""
    if not isinstance(node, ast.arguments):
        return
    for field in ("defaults", "kw_defaults"):
        for i, value in enumerate(getattr(node, field)):
            if not isinstance(value, ast.Constant) or value.value is None or isinstance(value.value, str):
                continue
            options = [not value.value] if isinstance(value.value, bool) else \
                [value.value + 1] if type(value.value) is int else [_tidy(value.value * 10), _tidy(value.value / 10)]
            for option in options:
                new = copy.deepcopy(node)
                getattr(new, field)[i] = ast.Constant(option)
                yield new


def entry(node: ast.AST, ctx: Context) -> Iterator[ast.AST]:
    """At the entry point's start, an array argument detached (a stop-gradient) or written in place with
    the values it has (`x.detach().mul_(1)`: no value changes, but the caller's tensor was written)."""
    if not (isinstance(node, ast.FunctionDef) and node.name == ctx.entry_point and ctx.framework == "torch"):
        return
    params = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
    for name in (params[i] for i in ctx.array_args if i < len(params)):
        for line in (f"{name} = {name}.detach()", f"{name}.detach().mul_(1)"):
            new = copy.deepcopy(node)
            new.body = [*_after_docstring(new.body, ast.parse(line).body)]
            yield new


def _after_docstring(body: list[ast.stmt], added: list[ast.stmt]) -> list[ast.stmt]:
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return [first, *added, *body[1:]]
    return [*added, *body]


def _raises(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], ast.Raise)


@dataclass(frozen=True)
class Operator:
    name: str
    doc: str
    propose: Callable[[ast.AST, Context], Iterator]


OPERATORS: tuple[Operator, ...] = tuple(Operator(f.__name__, (f.__doc__ or "").strip(), f) for f in (
    axis, transpose, reshape, reduce, arithmetic, gradient, dtype, index, constant, guard, comparison, inplace,
    statement, defaults, entry))


def operator_names() -> list[str]:
    return [o.name for o in OPERATORS]


# ---------------------------------------------------------------- making mutants

def mutants(source: str, ctx: Context = Context(), operators: Sequence[str] | None = None) -> list[Mutant]:
    """Every mutant of `source`, in the order of the file (then of the operators), each file once.

    Nothing inside a docstring, an f-string, an annotation or an error's message is mutated: a
    message's wording is no behaviour.
    """
    tree = ast.parse(source)
    chosen = [o for o in OPERATORS if operators is None or o.name in operators]
    places = node_places(tree)
    seen = {ast.unparse(tree)}
    made: list[Mutant] = []
    for node in mutable_nodes(tree):
        for op in chosen:
            for replacement in op.propose(node, ctx):
                text = unparsed_with(tree, places[id(node)], node, replacement)
                if text is None or text in seen:
                    continue
                seen.add(text)
                # A signature's arguments have no line of their own: theirs is the `def` line.
                line = getattr(node, "lineno", None) or getattr(places[id(node)][0], "lineno", 0)
                made.append(Mutant(index=len(made), operator=op.name, line=line,
                                   before=code_of(node), after=code_of(replacement), source=text + "\n"))
    return made
