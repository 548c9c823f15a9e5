"""What a slip is, in a learner's words: one mutation of a trusted solution said without its code.

A slip model (judge.judging.slips) is a trusted solution with one replacement made by
the mutation gate's operators (judge.judging.mutants). When it explains a learner's
output, the learner is told what the replacement does, never the code it was
made in: the reference and the accepted solutions are as hidden as the tests.
So the words use only what the learner's own file shares with any solution:
the entry point's argument names, the library's function names (`sum`,
`softmax`, `transpose`), dtypes and small numbers. A replacement that cannot be
said that way (a helper of the model's own, a variable only it has) gets no
words, and its model names nothing: vague words would be a guess.
"""
from __future__ import annotations

import ast
import re

from judge.judging import mutants

# Library names a learner's file shares with any solution: what a slip may be said with.
LIBRARY = frozenset(mutants.AXIS_CALLS | mutants.REDUCTIONS | set(mutants.SWAPS) | mutants.TRANSPOSES
                    | mutants.RESHAPES | {"exp", "log", "sqrt", "matmul", "einsum", "interpolate", "conv2d",
                                          "fill_diagonal", "masked_fill", "clamp", "clip", "where", "arange"})
# Calls said as their first argument (a conversion, a floor against division by zero).
WRAPPERS = frozenset({"float", "int", "max", "maximum", "clamp", "clamp_min", "clip"})
NORMS = frozenset({"norm", "vector_norm", "linalg_norm"})
# Names a library is imported as: `torch.clamp(x, ...)` is a function of `x`, `x.clamp(...)` a method of it.
MODULES = frozenset({"torch", "np", "numpy", "F", "nn", "math", "jnp"})
# Statements and expressions whose test is a condition: what it decides is a branch, not a value.
CONDITIONS = frozenset({"If", "While", "IfExp", "Assert", "BoolOp", "comprehension", "UnaryOp"})
# Operators whose slips are judged by other checks (raises, gradients, inputs written), not by a value.
NOT_VALUES = frozenset({"guard", "gradient", "inplace", "entry"})
OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
             ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not", ast.In: "in",
             ast.NotIn: "not in"}


def words(operator: str, before: str, after: str, arguments: tuple[str, ...], within: str = "") -> str | None:
    """What replacing `before` by `after` (an `operator` of judge.judging.mutants) does, in a learner's words;
    None when it cannot be said without the solution's own code. `arguments`: the entry point's;
    `within`: the kind of syntax node the replaced one stands in (`Compare`, `If`, ...).

    A number in a comparison, or a comparison that is a condition, decides which way the code goes:
    the slip's effect is a branch taken or not (a guard that never fires), which its words would
    not say, so it gets none."""
    if operator in NOT_VALUES:
        return None
    if (operator == "constant" and within == "Compare") or (operator == "comparison" and within in CONDITIONS):
        return None
    if operator == "defaults":
        return _default(before, after)
    b, a = _parse(before), _parse(after)
    if b is None or a is None:
        return None
    say = _Sayer(frozenset(arguments))
    return getattr(_Said, operator, _Said.unknown)(b, a, say)


def slug(text: str) -> str:
    """A stable name for a slip's words (a mistake's `name`): lowercase words joined by underscores."""
    return "slip_" + "_".join(re.findall(r"[a-z0-9]+", text.lower()))[:60]


def _parse(code: str) -> ast.AST | None:
    try:
        return ast.parse(code, mode="eval").body
    except SyntaxError:
        try:
            body = ast.parse(code).body
        except SyntaxError:
            return None
        return body[0] if len(body) == 1 else None


class _Sayer:
    """How an operand is said: an argument by its name, a number as it is, a square root as one."""

    def __init__(self, arguments: frozenset[str]):
        self.arguments = arguments

    def __call__(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Name) and node.id in self.arguments:
            return f"`{node.id}`"
        number = _number(node)
        if number is not None:
            return f"{number:g}"
        if isinstance(node, ast.Call) and _called_name(node) == "sqrt":
            inner = self(node.args[0]) if node.args else None
            return f"the square root of {inner}" if inner else "a square root"
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and _number(node.right) == 0.5:
            inner = self(node.left)
            return f"the square root of {inner}" if inner else "a square root"
        if isinstance(node, ast.Call) and _called_name(node) in WRAPPERS:
            # float(temperature), max(norm, eps), torch.clamp(norm, min=eps): said as what they wrap, the first
            # argument; norm.clamp_min(eps), a method, wraps its receiver, never its floor.
            method = isinstance(node.func, ast.Attribute) and not (
                isinstance(node.func.value, ast.Name) and node.func.value.id in MODULES)
            wrapped = node.func.value if method else (node.args[0] if node.args else None)
            return self(wrapped) if wrapped is not None else None
        if any(isinstance(n, ast.Call) and _called_name(n) in NORMS for n in ast.walk(node)):
            return "the norm"
        return None

    def call(self, node: ast.AST) -> str | None:
        """A library call's name in backticks, or None for a name of the solution's own."""
        name = _called_name(node) if isinstance(node, ast.Call) else None
        return f"`{name}`" if name in LIBRARY else None


def _called_name(node: ast.Call) -> str | None:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _number(node: ast.AST) -> float | None:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    return None


def _arguments_of(node: ast.Call) -> list[tuple[str | None, str]]:
    return [(None, ast.unparse(x)) for x in node.args] + [(k.arg, ast.unparse(k.value)) for k in node.keywords]


class _Said:
    """One function per operator of judge.judging.mutants: (before, after, sayer) -> words or None."""

    @staticmethod
    def unknown(b: ast.AST, a: ast.AST, say: _Sayer) -> str | None:
        return None

    @staticmethod
    def axis(b: ast.AST, a: ast.AST, say: _Sayer) -> str | None:
        if not (isinstance(b, ast.Call) and isinstance(a, ast.Call)):
            return None
        name = say.call(b)
        if name is None:
            return None
        before, after = _arguments_of(b), _arguments_of(a)
        if len(after) < len(before):
            gone = [k for k in before if k not in after]
            if gone and gone[0][0] in ("keepdim", "keepdims"):
                return f"{name} without keepdim, so its result lines up with the wrong axis"
            return f"{name} over every entry instead of along one axis"
        if len(after) > len(before):
            return f"{name} along one axis instead of over every entry"
        return f"{name} along the wrong axis"

    @staticmethod
    def transpose(b: ast.AST, a: ast.AST, say: _Sayer) -> str | None:
        if isinstance(b, ast.Attribute) and b.attr in ("T", "mT"):
            return f"a transpose (`.{b.attr}`) left out"
        name = say.call(b)
        if name is None:
            return None
        if isinstance(a, ast.Call) and _called_name(a) == _called_name(b):
            return f"{name} with two of its axes in the wrong order"
        # Said as a call: "a `t` left out" would read as a variable named t (of a solution the learner never saw).
        return f"a transpose (`.{_called_name(b)}()`) left out" if _called_name(b) in ("t", "mT") else f"a `{_called_name(b)}(...)` left out"

    @staticmethod
    def reshape(b: ast.AST, a: ast.AST, say: _Sayer) -> str | None:
        name = say.call(b)
        return None if name is None else f"a {name} with two of its sizes in the wrong order"

    @staticmethod
    def reduce(b: ast.AST, a: ast.AST, say: _Sayer) -> str | None:
        if not (isinstance(b, ast.Call) and isinstance(a, ast.Call)):
            return None
        if _called_name(a) != _called_name(b):
            if say.call(b) is None or say.call(a) is None:
                return None
            return f"{say.call(a)} where {say.call(b)} belongs"
        modes = [(x.value.value, y.value.value) for x, y in zip(b.keywords, a.keywords)
                 if x.arg == "reduction" and isinstance(x.value, ast.Constant) and isinstance(y.value, ast.Constant)]
        return f'reduction="{modes[0][1]}" where "{modes[0][0]}" belongs' if modes else None

    @staticmethod
    def arithmetic(b: ast.AST, a: ast.AST, say: _Sayer) -> str | None:
        if isinstance(b, ast.BinOp):
            right = say(b.right)
            # The replacement is the same operation with another operator, or its left operand alone.
            swapped = isinstance(a, ast.BinOp) and ast.dump(a.left) == ast.dump(b.left) \
                and ast.dump(a.right) == ast.dump(b.right)
            if isinstance(b.op, ast.Div):
                if swapped and isinstance(a.op, ast.FloorDiv):
                    return "floor division `//` where true division `/` belongs"
                if swapped:
                    return f"a multiplication by {right} where the division belongs" if right else None
                return f"the division by {right} left out" if right else None
            if isinstance(b.op, ast.Mult) and swapped:
                return f"a division by {right} where the multiplication belongs" if right else None
            if isinstance(b.op, ast.Add):
                return f"{right} subtracted where it is added" if right else "a term subtracted where it is added"
            if isinstance(b.op, ast.Sub):
                if swapped:
                    return f"{right} added where it is subtracted" if right else "a term added where it is subtracted"
                return f"{right} not subtracted" if right else "a subtracted term left out"
            if isinstance(b.op, ast.FloorDiv):
                return "true division `/` where floor division `//` belongs"
            if isinstance(b.op, ast.Pow):
                power = _number(b.right)
                if power == 2:
                    return "a square left out"
                if power == 0.5:
                    return "a square root left out"
                return f"the power {power:g} left out" if power is not None else None
            return None
        if isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.USub):
            return "a minus sign left out"
        if isinstance(b, ast.Call) and _called_name(b) == "sqrt":
            return "a square root left out"
        return None

    @staticmethod
    def dtype(b: ast.AST, a: ast.AST, say: _Sayer) -> str | None:
        if isinstance(b, ast.Attribute) and isinstance(a, ast.Attribute):
            return f"{a.attr} where {b.attr} belongs"
        if isinstance(b, ast.Constant) and isinstance(a, ast.Constant):
            return f"{a.value} where {b.value} belongs"
        if isinstance(b, ast.Call) and _called_name(b) in ("double", "float"):
            precision = {"double": "float64", "float": "float32"}
            if isinstance(a, ast.Call) and _called_name(a) in precision:
                return f"a cast to {precision[_called_name(a)]} where {precision[_called_name(b)]} belongs"
            return f"a cast to {precision[_called_name(b)]} (`.{_called_name(b)}()`) left out"
        return None

    @staticmethod
    def index(b: ast.AST, a: ast.AST, say: _Sayer) -> str | None:
        if not isinstance(b, ast.Subscript):
            return None
        if isinstance(b.value, ast.Attribute) and b.value.attr == "shape":
            return "a size read from the wrong axis (`.shape[...]`)"
        parts = b.slice.elts if isinstance(b.slice, ast.Tuple) else [b.slice]
        return "a slice off by one" if any(isinstance(p, ast.Slice) for p in parts) else "an index off by one"

    @staticmethod
    def constant(b: ast.AST, a: ast.AST, say: _Sayer) -> str | None:
        old, new = _number(b), _number(a)
        if old is None or new is None:
            return None
        if isinstance(b, ast.Constant) and type(b.value) is float and old and new:
            # Said by the ratio itself: a repair makes the learner's constant ten times larger or smaller.
            if abs(new / old - 10) < 1e-9:
                return f"a constant ten times too large ({new:g} where {old:g} belongs)"
            if abs(new / old - 0.1) < 1e-9:
                return f"a constant ten times too small ({new:g} where {old:g} belongs)"
        return f"the number {new:g} where {old:g} belongs"

    @staticmethod
    def comparison(b: ast.AST, a: ast.AST, say: _Sayer) -> str | None:
        if not (isinstance(b, ast.Compare) and isinstance(a, ast.Compare)):
            return None
        old, new = OPERATORS.get(type(b.ops[0])), OPERATORS.get(type(a.ops[0]))
        return f"the comparison `{new}` where `{old}` belongs" if old and new else None

    @staticmethod
    def statement(b: ast.AST, a: ast.AST, say: _Sayer) -> str | None:
        call = b.value if isinstance(b, ast.Expr) else b if isinstance(b, ast.Call) else None
        name = say.call(call) if call is not None else None
        return f"a step left out: the call to {name}" if name else None

    @staticmethod
    def defaults(b: ast.AST, a: ast.AST, say: _Sayer) -> str | None:
        return None  # never reached: a signature is not an expression (see `words`)


def _default(before: str, after: str) -> str | None:
    """A changed default argument: the signature is the statement's, so its name and values are public."""
    try:
        old, new = (ast.parse(f"def f({text}): pass").body[0].args for text in (before, after))
    except SyntaxError:
        return None
    names = [x.arg for x in [*old.posonlyargs, *old.args]][-len(old.defaults):] if old.defaults else []
    for name, x, y in zip(names, old.defaults, new.defaults):
        if ast.unparse(x) != ast.unparse(y):
            return f"the default of `{name}` taken as {ast.unparse(y)} where {ast.unparse(x)} belongs"
    return None
