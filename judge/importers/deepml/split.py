"""Splitting one Deep-ML test into the part the judge runs and the call the sandbox runs.

A Deep-ML test is Python: setup statements (imports, `np.random.seed(42)`, arrays), then statements
that use the learner's functions, each value shown by `print(...)`, often rounded
(`print(np.round(f(a, b), 3))`). Here it becomes a test of this judge (judge.runs.script):

- the setup: the statements before the first one that names a learner's function or class. They run
  in the judge, once, when the problem is imported; the values the call reads from them become the
  test's inputs;
- the call: every statement from there on, with each `print(E)` made an assignment of E's value. It
  runs where the learner's code runs. Each argument of a learner's function that uses no learner name
  and is not a short literal (a number, a string, a short tuple) is taken out as an input too (a list,
  `np.array([...])`), named after the parameter it is passed to, so the call reads `matrix_dot_vector(a, b)`;
- the value: what the prints showed, without the rounding they applied (`round`, `np.round`,
  `.round(k)`, `[round(x, k) for x in E]`, an f-string's `:.4f`), which becomes the tolerance:
  half a unit of the last decimal kept (judge.importers.deepml.values).

Nothing is run here: this module reads the test's syntax; judge.importers.deepml.convert runs the
setup and decides which values can be inputs.
"""
from __future__ import annotations

import ast
import builtins
import copy
from dataclasses import dataclass, field

from judge.importers.deepml.printed import Printed, dotted_name, has_print, print_arguments, read_printed

_SEED_CALLS = {"np.random.seed", "numpy.random.seed", "random.seed", "torch.manual_seed", "torch.random.manual_seed"}
SHORT_LITERAL = 40   # characters: a literal argument this short stays written in the call
VALUE = "_printed"   # the prefix of the names the call keeps each printed value in


class Unsplittable(ValueError):
    """A test this judge cannot take apart; the message says why, in one line."""


@dataclass
class Analysis:
    """A test's statements sorted into setup and call, and the call's learner calls and prints."""

    learner: frozenset[str]
    setup: list[ast.stmt]
    call: list[ast.stmt]
    printed: list[Printed]
    seeds: list[str] = field(default_factory=list)   # the setup's seeding statements, as written

    def defined_by_setup(self) -> dict[str, int]:
        """Each name the setup binds -> the index of the last setup statement binding it."""
        bound: dict[str, int] = {}
        for index, statement in enumerate(self.setup):
            for name in _bound(statement):
                bound[name] = index
        return bound


def learner_names(*sources: str) -> frozenset[str]:
    """The top-level functions and classes of the learner's files (the starter, the reference):
    the names a test calls the learner's code by."""
    found: set[str] = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        found.update(n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
    return frozenset(found)


def analyse(code: str, learner: frozenset[str]) -> Analysis:
    """The test's setup, call and prints; Unsplittable when it cannot be read or calls nothing of the learner's."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise Unsplittable(f"the test is not valid Python: {exc.msg} (line {exc.lineno})") from None
    statements = list(tree.body)
    first = next((i for i, s in enumerate(statements) if _names(s) & learner), None)
    if first is None:
        raise Unsplittable("the test calls none of the learner's functions or classes")
    setup, rest = statements[:first], statements[first:]
    call: list[ast.stmt] = []
    printed: list[Printed] = []
    for statement in rest:
        shown = print_arguments(statement)
        if shown is None:
            if has_print(statement):
                raise Unsplittable("the test prints inside a block (a loop, an if, a function): only a print "
                                   "of its own line can be a value")
            call.append(statement)
            continue
        printed.append(read_printed(shown))
        name = f"{VALUE}_{len(printed)}"
        call.append(ast.Assign(targets=[ast.Name(name, ast.Store())], value=printed[-1].expression, lineno=0))
    if not printed:
        raise Unsplittable("the test prints nothing after its first call of the learner's code")
    seeds = [ast.unparse(s) for s in setup if is_seed(s)]
    return Analysis(learner=learner, setup=setup, call=call, printed=printed, seeds=seeds)


def renamed_call(analysis: Analysis, renamed: dict[int, str]) -> list[ast.stmt]:
    """The call's statements with each taken-out argument (by the id of its node) replaced by its
    input's name."""
    return [_Rename(renamed).visit(_copy(s)) for s in analysis.call]


def call_source(analysis: Analysis, statements: list[ast.stmt], prelude: list[str]) -> str:
    """The call as text: `prelude` lines, the call's `statements` (`renamed_call`), and last the value:
    the one printed expression itself, or a dict of them by print (`print_1`, `print_2`, ...)."""
    last = statements[-1] if statements else None
    single = len(analysis.printed) == 1 and isinstance(last, ast.Assign) \
        and isinstance(last.targets[0], ast.Name) and last.targets[0].id == f"{VALUE}_1"
    lines = list(prelude)
    if single:
        lines += [ast.unparse(s) for s in statements[:-1]]
        lines.append(ast.unparse(last.value))
    else:
        lines += [ast.unparse(s) for s in statements]
        lines.append("{" + ", ".join(f"'{key(i)}': {VALUE}_{i}" for i in range(1, len(analysis.printed) + 1)) + "}")
    return "\n".join(lines)


def instrumented(analysis: Analysis) -> str:
    """The test as written, but each print's value kept in `_printed_<k>` as it prints it: one run of
    this shows both what the test printed and the unrounded values it printed (each computed once)."""
    lines = [ast.unparse(s) for s in analysis.setup]
    printed = iter(range(1, len(analysis.printed) + 1))
    for statement in analysis.call:
        if not (isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name)
                and statement.targets[0].id.startswith(VALUE + "_") and statement.lineno == 0):
            lines.append(ast.unparse(statement))
            continue
        number = next(printed)
        shown = analysis.printed[number - 1]
        name = f"{VALUE}_{number}"
        lines.append(f"{name} = {shown.source}")
        renamed = {id(part): name + path for part, path in shown.parts}
        arguments = [_Rename(renamed).visit(_copy(a)) for a in shown.arguments]
        lines.append(ast.unparse(ast.Expr(ast.Call(ast.Name("print", ast.Load()), arguments, []))))
    return "\n".join(lines)


def key(number: int) -> str:
    """The key of the `number`th print's value in a call that prints several."""
    return f"print_{number}"


# ---------------------------------------------------------------- arguments taken out as inputs

@dataclass(frozen=True)
class Argument:
    """An argument of a learner's call that the judge can compute itself: a candidate input."""

    node: ast.expr
    parameter: str | None     # the parameter it is passed to, when the signature says


def hoistable_arguments(analysis: Analysis, signatures: dict[str, list[str]]) -> list[Argument]:
    """Arguments of the learner's calls that name nothing the call computes and are not short literals.

    `signatures`: parameter names by function, class (its `__init__`'s, without `self`) and method name."""
    computed = set(analysis.learner)
    for statement in analysis.call:
        computed |= _bound(statement)
    computed |= {f"{VALUE}_{i}" for i in range(1, len(analysis.printed) + 1)}
    found: list[Argument] = []
    for statement in analysis.call:
        for node in ast.walk(statement):
            if not (isinstance(node, ast.Call) and _names(node.func) & analysis.learner | _names(node.func) & computed):
                continue
            params = signatures.get(_callee(node.func), [])
            for position, arg in enumerate(node.args):
                if isinstance(arg, ast.Starred):
                    break
                if _takeable(arg, computed):
                    found.append(Argument(arg, params[position] if position < len(params) else None))
            for keyword in node.keywords:
                if keyword.arg is not None and _takeable(keyword.value, computed):
                    found.append(Argument(keyword.value, keyword.arg))
    return found


def signatures(*sources: str) -> dict[str, list[str]]:
    """Parameter names of the learner's top-level functions, of each class (its `__init__`) and of
    each method name defined by one class only, from the first source that parses."""
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        found: dict[str, list[str]] = {}
        methods: dict[str, list[list[str]]] = {}
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found[node.name] = _params(node)
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        params = _params(item)[1:]
                        if item.name == "__init__":
                            found[node.name] = params
                        else:
                            methods.setdefault(item.name, []).append(params)
        for name, options in methods.items():
            if len(options) == 1 and name not in found:
                found[name] = options[0]
        return found
    return {}


def free_names(statements: list[ast.stmt] | ast.AST, skip: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Names the statements read before binding them (in order of first use), less builtins and `skip`.

    A name a lambda, a comprehension or a nested function binds for itself is not read from outside."""
    nodes = statements if isinstance(statements, list) else [statements]
    bound: set[str] = set()
    found: list[str] = []
    for statement in nodes:
        for name in _outer_loads(statement):
            if name not in bound and name not in skip and name not in found and not hasattr(builtins, name):
                found.append(name)
        bound |= _bound(statement)
    return found


def _outer_loads(node: ast.AST, inner: frozenset[str] = frozenset()) -> list[str]:
    """The names `node` loads that are not bound by a scope inside it."""
    if isinstance(node, ast.Name):
        return [node.id] if isinstance(node.ctx, ast.Load) and node.id not in inner else []
    own: set[str] = set()
    if isinstance(node, ast.Lambda) or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        arguments = node.args
        own = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
        own |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
        if not isinstance(node, ast.Lambda):
            own |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        own = {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
    scope = inner | own
    found: list[str] = []
    for child in ast.iter_child_nodes(node):
        found.extend(_outer_loads(child, frozenset(scope)))
    return found


def bound_names(statement: ast.stmt) -> set[str]:
    return _bound(statement)


# ---------------------------------------------------------------- names

def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _loads(node: ast.AST) -> list[str]:
    return [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]


def _bound(statement: ast.stmt) -> set[str]:
    found: set[str] = set()
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {statement.name}
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in statement.names}
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found.add(node.id)
    return found


def _callee(node: ast.expr) -> str:
    """The name a call's parameters are looked up by: a function's or class's, else a method's."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _params(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    return [a.arg for a in [*function.args.posonlyargs, *function.args.args]]


def is_seed(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) \
        and dotted_name(statement.value.func) in _SEED_CALLS


def _takeable(node: ast.expr, computed: set[str]) -> bool:
    """An argument the judge can compute: it names nothing the call computes (nor a lambda's own
    names) and is not a short literal (a number, a string, a short tuple), which stays written in the call."""
    if _names(node) & computed or any(isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Starred, ast.Yield, ast.Await,
                                                     ast.ListComp, ast.GeneratorExp, ast.DictComp, ast.SetComp))
                                      for n in ast.walk(node)):
        return False
    if isinstance(node, ast.Name):
        return False   # a setup name: an input by its own name already
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return True
    # a list or a dict is data to show as an input; a number, a string or a short tuple reads best in the call
    return isinstance(node, (ast.List, ast.Dict)) or len(ast.unparse(node)) > SHORT_LITERAL


def _copy(node: ast.AST) -> ast.AST:
    """A deep copy that keeps a map from each original node's id to its copy's place (`_Rename`)."""
    clone = copy.deepcopy(node)
    for original, copied in zip(ast.walk(node), ast.walk(clone)):
        copied._original = id(original)  # type: ignore[attr-defined]
    return clone


class _Rename(ast.NodeTransformer):
    """Replaces each node whose original's id is in `renamed` by a load of the input's name."""

    def __init__(self, renamed: dict[int, str]) -> None:
        self.renamed = renamed

    def generic_visit(self, node: ast.AST) -> ast.AST:
        name = self.renamed.get(getattr(node, "_original", -1))
        if name is not None and isinstance(node, ast.expr):
            return ast.copy_location(ast.parse(name, mode="eval").body, node)
        return super().generic_visit(node)
