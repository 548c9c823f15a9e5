"""What a Deep-ML test prints: each print's value without the rounding it applied, and that rounding.

`print(np.round(f(a, b), 3))` shows f(a, b) kept to 3 decimals: the value is the expression inside
the rounding (`round`, `np.round`, `.round(k)`, `[round(x, k) for x in E]`, an f-string's `:.4f`),
seen through calls that only change its container (`list(...)`, `.tolist()`), and the rounding
becomes the test's tolerance (judge.importers.deepml.values). Nothing is run here.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

# Calls that only convert a value's container (undone by the driver's canonical form anyway): a
# rounding inside them is the test's rounding of the value.
_TRANSPARENT_CALLS = {"list", "tuple", "float", "int", "np.array", "numpy.array", "np.asarray", "numpy.asarray",
                      "torch.tensor", "np.float64", "np.float32", "sorted"}
_TRANSPARENT_METHODS = {"tolist", "item", "numpy", "detach", "cpu", "flatten", "ravel", "squeeze", "copy"}
_ROUND_CALLS = {"round", "np.round", "numpy.round", "np.around", "numpy.around", "np.round_", "torch.round"}


@dataclass(frozen=True)
class Printed:
    """One `print(...)` of the test: the expression of its value and the rounding it applied."""

    expression: ast.expr
    decimals: int | None = None      # decimal places kept (`round(x, 4)`, `:.4f`)
    digits: int | None = None        # significant digits kept (`:.3e`, `:.4g`)
    arguments: tuple[ast.expr, ...] = ()   # the print's own arguments
    parts: tuple[tuple[ast.expr, str], ...] = ()   # nodes inside them, each with where it is in the value

    @property
    def source(self) -> str:
        return ast.unparse(self.expression)


def print_arguments(statement: ast.stmt) -> list[ast.expr] | None:
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) \
            and isinstance(statement.value.func, ast.Name) and statement.value.func.id == "print":
        return list(statement.value.args)
    return None


def has_print(statement: ast.stmt) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print"
               for n in ast.walk(statement))


def read_printed(arguments: list[ast.expr]) -> Printed:
    """The value one print shows: its one argument, a tuple of several, an f-string's formatted values."""
    values: list[ast.expr] = []
    decimals: list[int] = []
    digits: list[int] = []

    parts: list[tuple[ast.expr, list[int]]] = []

    def add(node: ast.expr, spec: tuple[int | None, int | None] = (None, None)) -> None:
        originals = {id(n) for n in ast.walk(node)}
        expression, d, g = unrounded(node)
        d, g = _min(d, spec[0]), _min(g, spec[1])
        parts.extend((n, [len(values), *path]) for n, path in _parts(expression, originals))
        values.append(expression)
        decimals.extend([d] if d is not None else [])
        digits.extend([g] if g is not None else [])

    for argument in arguments:
        if isinstance(argument, ast.JoinedStr):
            for part in argument.values:
                if isinstance(part, ast.FormattedValue):
                    add(part.value, _format_spec(part.format_spec))
        elif not isinstance(argument, ast.Constant):
            add(argument)
    if not values:
        value: ast.expr = ast.Constant(" ".join(str(a.value) for a in arguments if isinstance(a, ast.Constant)))
    elif len(values) == 1:
        value = values[0]
        parts = [(n, path[1:]) for n, path in parts]
    else:
        value = ast.Tuple(values, ast.Load())
    return Printed(value, min(decimals) if decimals else None, min(digits) if digits else None,
                   tuple(arguments), tuple((n, "".join(f"[{i}]" for i in path)) for n, path in parts))


def _parts(expression: ast.expr, originals: set[int]) -> list[tuple[ast.expr, list[int]]]:
    """The test's own nodes in a value expression, each with its index path in the value (the rounding
    taken off a tuple display makes a new display of the same elements)."""
    if id(expression) in originals:
        return [(expression, [])]
    if isinstance(expression, (ast.Tuple, ast.List)):
        return [(n, [i, *path]) for i, e in enumerate(expression.elts) for n, path in _parts(e, originals)]
    return []


def unrounded(node: ast.expr) -> tuple[ast.expr, int | None, int | None]:
    """`node` without the rounding around (or inside a container display of) it, and the decimals kept."""
    decimals: int | None = None
    digits: int | None = None
    while True:
        if isinstance(node, ast.Call):
            name = dotted_name(node.func)
            if name in _ROUND_CALLS and node.args:
                places = _places(node)
                if places is None:
                    break
                decimals = _min(decimals, places)
                node = node.args[0]
                continue
            if isinstance(node.func, ast.Attribute) and node.func.attr == "round" and not node.args[1:]:
                places = _int(node.args[0]) if node.args else _keyword_int(node, "decimals", 0)
                if places is None:
                    break
                decimals = _min(decimals, places)
                node = node.func.value
                continue
            if name in _TRANSPARENT_CALLS and len(node.args) == 1 and not node.keywords:
                inner, d, g = unrounded(node.args[0])
                if d is None and g is None:
                    break
                return inner, _min(decimals, d), _min(digits, g)
            if isinstance(node.func, ast.Attribute) and node.func.attr in _TRANSPARENT_METHODS \
                    and not node.args and not node.keywords:
                inner, d, g = unrounded(node.func.value)
                if d is None and g is None:
                    break
                return inner, _min(decimals, d), _min(digits, g)
            break
        if isinstance(node, ast.ListComp) and len(node.generators) == 1 and not node.generators[0].ifs \
                and isinstance(node.generators[0].target, ast.Name):
            element, d, g = unrounded(node.elt)
            target = node.generators[0].target.id
            if isinstance(element, ast.Name) and element.id == target and (d is not None or g is not None):
                decimals, digits = _min(decimals, d), _min(digits, g)
                node = node.generators[0].iter
                continue
            break
        if isinstance(node, (ast.Tuple, ast.List)):
            parts = [unrounded(e) for e in node.elts]
            if not parts or all(d is None and g is None for _, d, g in parts):
                break
            kind = ast.Tuple if isinstance(node, ast.Tuple) else ast.List
            rounded = [d for _, d, _ in parts if d is not None]
            significant = [g for _, _, g in parts if g is not None]
            # an element left unrounded beside rounded ones keeps its own precision: the loosest is not its
            return (kind([p for p, _, _ in parts], ast.Load()),
                    _min(decimals, min(rounded) if rounded else None), _min(digits, min(significant) if significant else None))
        break
    return node, decimals, digits


def _format_spec(spec: ast.expr | None) -> tuple[int | None, int | None]:
    """(decimals, significant digits) an f-string's format spec keeps: `.4f` 4 decimals, `.3e` 4 digits."""
    if not isinstance(spec, ast.JoinedStr) or not all(isinstance(v, ast.Constant) for v in spec.values):
        return None, None
    text = "".join(str(v.value) for v in spec.values)
    match = re.fullmatch(r"[<>^=]?[+\- ]?#?0?\d*[,_]?(?:\.(\d+))?([fFeEgG%])?", text)
    if not match or match.group(1) is None:
        return None, None
    places, kind = int(match.group(1)), (match.group(2) or "g").lower()
    if kind == "f":
        return places, None
    if kind == "%":
        return places + 2, None
    if kind == "e":
        return None, places + 1
    return None, max(places, 1)


def _places(node: ast.Call) -> int | None:
    if len(node.args) >= 2:
        return _int(node.args[1])
    for keyword in node.keywords:
        if keyword.arg in ("ndigits", "decimals"):
            return _int(keyword.value)
    return 0


def _keyword_int(node: ast.Call, name: str, default: int) -> int | None:
    for keyword in node.keywords:
        if keyword.arg == name:
            return _int(keyword.value)
    return default if not node.keywords else None


def _int(node: ast.expr) -> int | None:
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError):
        return None
    return value if type(value) is int and value >= 0 else None


def _min(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def dotted_name(node: ast.expr) -> str:
    """`np.random.seed` of such a chain of attributes on a name; '' for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""
