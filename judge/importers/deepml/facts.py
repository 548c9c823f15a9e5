"""What a Deep-ML variant says of itself, read from its files: the reference's source, the learner's entry
point and signature, whether it uses torch, how many decimals its output is rounded to, and its
example.json as a test case.

Nothing is run here; judge.importers.deepml.convert runs the reference on the tests.
"""
from __future__ import annotations

import ast
import re

from judge.importers.deepml import split
from judge.importers.deepml.clone import TestCase, Variant
from judge.importers.deepml.printed import unrounded

EXAMPLE = 0               # the number of the test made from example.json


class Unimportable(ValueError):
    """A variant that cannot be imported at all; the message says why in one line."""


# Modules Deep-ML's files use by these names without always importing them (its runner has them).
_COMMON = {"np": "import numpy as np", "math": "import math", "torch": "import torch", "nn": "import torch.nn as nn",
           "F": "import torch.nn.functional as F", "random": "import random", "copy": "import copy"}


def reference_source(variant: Variant) -> str:
    """The problem's reference: solution.py, after what it uses of starter_code.py without defining it
    (a base class the starter gives, its seeding) and the imports of modules it names without importing."""
    try:
        solution = ast.parse(variant.solution)
    except SyntaxError:
        return variant.solution
    defined = {n for statement in solution.body for n in split.bound_names(statement)}
    used = {n.id for n in ast.walk(solution) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    lines: list[str] = []
    try:
        starter = ast.parse(variant.starter).body
    except SyntaxError:
        starter = []
    for statement in starter:
        names = split.bound_names(statement)
        if isinstance(statement, (ast.Import, ast.ImportFrom)) and names - defined:
            lines.append(ast.unparse(statement))
            defined |= names
    anywhere = {n.id for n in ast.walk(solution) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    anywhere |= {a.arg for a in ast.walk(solution) if isinstance(a, ast.arg)}
    for name, line in _COMMON.items():
        if name in used and name not in defined and name not in anywhere:
            lines.append(line)
            defined.add(name)
    for statement in starter:
        if isinstance(statement, (ast.FunctionDef, ast.ClassDef)) and statement.name in used \
                and statement.name not in defined:
            lines.append(ast.unparse(statement))
        elif isinstance(statement, ast.Expr) and split.is_seed(statement) \
                and ast.unparse(statement) not in variant.solution:
            lines.append(ast.unparse(statement))
    if not lines:
        return variant.solution
    return ("# What solution.py uses of starter_code.py, and the imports Deep-ML's runner gives it\n"
            + "\n".join(lines) + "\n\n" + variant.solution)


def entry_point(variant: Variant, learner: frozenset[str]) -> str:
    """The learner's main function: the starter's first top-level function or class the tests call."""
    called: dict[str, int] = {}
    for case in variant.tests:
        try:
            tree = ast.parse(case.code)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in learner:
                called[node.id] = called.get(node.id, 0) + 1
    for source in (variant.starter, variant.solution):
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        names = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        for name in names:
            if name in called:
                return name
    if called:
        return max(called, key=lambda n: called[n])
    raise Unimportable("its tests call no function or class that starter_code.py or solution.py defines")


def signature(variant: Variant, learner: frozenset[str]) -> str:
    """The headers of the starter's functions and classes (with their methods'), as learners see them."""
    for source in (variant.starter, variant.solution):
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        lines: list[str] = []
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines.append(_header(node))
            elif isinstance(node, ast.ClassDef):
                bases = f"({', '.join(ast.unparse(b) for b in node.bases)})" if node.bases else ""
                lines.append(f"class {node.name}{bases}:")
                lines += ["    " + _header(m) for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if lines:
            return "\n".join(lines)
    return ""


def _header(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    returns = f" -> {ast.unparse(node.returns)}" if node.returns is not None else ""
    return f"def {node.name}({ast.unparse(node.args)}){returns}:"


def uses_torch(variant: Variant) -> bool:
    pattern = re.compile(r"^\s*(import torch|from torch)", re.M)
    return bool(pattern.search(variant.solution) or pattern.search(variant.starter)
                or any(pattern.search(t.code) for t in variant.tests))


def output_decimals(solution: str, learner: frozenset[str]) -> int | None:
    """The decimals the reference rounds what its learner functions return to (`return round(x, 4)`),
    when every such return rounds to one number of places: the precision the statement promises."""
    try:
        tree = ast.parse(solution)
    except SyntaxError:
        return None
    found: set[int] = set()
    returns_unrounded = False
    for function in [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and n.name in learner]:
        for node in ast.walk(function):
            if isinstance(node, ast.Return) and node.value is not None:
                _, decimals, _ = unrounded(node.value)
                if decimals is None:
                    returns_unrounded = True
                else:
                    found.add(decimals)
    return found.pop() if len(found) == 1 and not returns_unrounded else None


def is_class(variant: Variant, name: str) -> bool:
    for source in (variant.starter, variant.solution):
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        return any(isinstance(n, ast.ClassDef) and n.name == name for n in tree.body)
    return False


def example_case(variant: Variant, entry: str, parameters: list[str]) -> TestCase | None:
    """example.json's input as a test: `name = value` assignments of the entry point's parameters, then
    a print of the entry point called on them; None when it is not written that way."""
    example = variant.example
    if example is None or not example.input.strip() or not parameters or is_class(variant, entry):
        return None   # (a class's example would only make an object: its tests show what it does)
    text = example.input.strip()
    tree = None
    for candidate in (text, re.sub(r",\s*(?=[A-Za-z_]\w*\s*=(?!=))", "\n", text)):
        try:
            tree = ast.parse(candidate)
            text = candidate
            break
        except SyntaxError:
            continue
    if tree is None or not tree.body or not all(isinstance(s, ast.Assign) and len(s.targets) == 1
                                                and isinstance(s.targets[0], ast.Name) for s in tree.body):
        return None
    names = [s.targets[0].id for s in tree.body]
    if not set(names) <= set(parameters) or len(set(names)) != len(names):
        return None
    ordered = [p for p in parameters if p in names]
    positional = ordered == parameters[:len(ordered)]
    arguments = ", ".join(ordered if positional else [f"{n}={n}" for n in ordered])
    prefix = "import numpy as np\n" if "np." in text else ""
    prefix += "import torch\n" if "torch." in text else ""
    return TestCase(EXAMPLE, f"{prefix}{text}\nprint({entry}({arguments}))", example.output)
