"""Tampering: where a submission's own code reaches into the judge's or the interpreter's internals.

Nothing here decides a verdict (the operating system's walls do); it shows where a file went looking for
the judge: its modules, frames not its own, the garbage collector, trace functions, raw memory, library
functions rebound, torch's dispatch and C internals, a class that lies about its class. `RULES` is the
table, each rule with its wording. `scan` reads the source as a syntax tree (never running it), following
names through imports and plain aliases only; what the child reports while it runs adds to it
(`collect`). Setting the documented configuration flags in `CONFIGURATION` is not tampering.
"""
from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass
from typing import Iterable, Iterator

from judge.base.escape import escape_controls
from judge.base.quiet import quiet

MAX_FINDINGS = 20   # findings kept per report: enough to show what a file does, never a flood
MAX_TEXT = 200      # characters of one finding (a name can come from a string in the source)


@dataclass(frozen=True)
class Tampering:
    """One finding: the line of the submission's source it is on (None: not known), and what it does."""

    line: int | None
    what: str

    def text(self) -> str:
        """The finding as every face shows it: `line 3: rebinds torch.autograd.grad, ...`."""
        return self.what if self.line is None else f"line {self.line}: {self.what}"


@dataclass(frozen=True)
class Rule:
    """A pattern of the source and how a finding of it is worded (`{name}`: what matched).

    A rule matches a dotted name used or imported (after imports and aliases are
    followed; a name matches with everything under it), an attribute read on
    anything, a name defined (in a class body, assigned as an attribute, a dict's
    key), a base class (by its last name), or the name of a class the code defines.
    """

    key: str
    wording: str
    names: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    bases: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()


# The builtin exceptions' names: a class of the submission's named as one poses as it.
_EXCEPTIONS = tuple(sorted(name for name, value in vars(builtins).items()
                           if isinstance(value, type) and issubclass(value, BaseException)))


RULES: tuple[Rule, ...] = (
    Rule("judge", "reaches into the judge ({name})", names=("judge",)),
    Rule("modules", "fetches modules through sys.modules", names=("sys.modules",)),
    Rule("frames", "reads frames that are not its own ({name})",
         names=("sys._getframe", "sys._current_frames", "inspect.currentframe", "inspect.stack",
                "inspect.getouterframes", "inspect.getinnerframes", "inspect.trace"),
         attributes=("f_back", "f_globals", "f_locals", "f_builtins", "tb_frame", "gi_frame", "cr_frame",
                     "ag_frame")),
    Rule("gc", "walks the garbage collector's objects ({name})",
         names=("gc.get_objects", "gc.get_referrers", "gc.get_referents")),
    Rule("trace", "sets a trace or profile function ({name})",
         names=("sys.settrace", "sys.setprofile", "sys.monitoring", "threading.settrace", "threading.setprofile",
                "threading.settrace_all_threads", "threading.setprofile_all_threads")),
    Rule("ctypes", "uses {name}: raw memory", names=("ctypes", "_ctypes", "numpy.ctypeslib")),
    Rule("channel", "looks for the judge's channel among open files ({name})",
         names=("stat.S_ISSOCK", "socket.fromfd")),
    Rule("array_interface", "defines {name}: an array over any address in memory",
         defines=("__array_interface__", "__array_struct__")),
    # An attribute of an imported name (or a plain alias of one) assigned, deleted or setattr'd: found by
    # the walk itself, as no pattern says which names are a library's.
    Rule("rebind", "rebinds {name}, an attribute of {owner}"),
    Rule("builtins", "reaches the interpreter's builtins through __builtins__", names=("__builtins__",)),
    Rule("torch_library", "uses {name}: registers or overrides torch operators", names=("torch.library",)),
    Rule("torch_internals", "reaches torch's internals ({name})", names=("torch._C", "torch.utils._python_dispatch")),
    Rule("dispatch", "defines {name}: intercepts torch's calls", defines=("__torch_dispatch__", "__torch_function__")),
    Rule("dispatch_mode", "subclasses {name}: a mode that sees every torch call",
         bases=("TorchDispatchMode", "TorchFunctionMode")),
    Rule("fake_class", "sets __class__: an object that lies about its class", defines=("__class__",)),
    Rule("fake_exception", "defines a class named {name}, as a builtin exception is", classes=_EXCEPTIONS),
    Rule("subclasses", "walks every class through __subclasses__()", attributes=("__subclasses__",)),
)
_RULES = {rule.key: rule for rule in RULES}
_ORDER = {rule.key: i for i, rule in enumerate(RULES)}

# Documented configuration flags honest code sets (module docstring): assigning them is not rebinding.
CONFIGURATION = frozenset({
    "torch.backends.cudnn.deterministic", "torch.backends.cudnn.benchmark", "torch.backends.cudnn.enabled",
    "torch.backends.cudnn.allow_tf32", "torch.backends.cuda.matmul.allow_tf32",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
    "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
})

# Names that need no import to be reached.
_UNBOUND = frozenset({"__builtins__"})
# Calls that set or delete an attribute of their first argument.
_SETTERS = frozenset({"setattr", "delattr", "object.__setattr__", "object.__delattr__", "type.__setattr__",
                      "type.__delattr__"})
# Calls that fetch a module by name.
_IMPORTERS = frozenset({"__import__", "importlib.import_module", "importlib.__import__"})


def scan(source: str) -> tuple[Tampering, ...]:
    """The places `source` reaches into the judge's or the interpreter's internals, by line (at most
    MAX_FINDINGS, one per line and rule); empty for source that does not parse (its compile error is
    the report's) or that does none of it."""
    try:
        with quiet():  # its warnings (an invalid escape) are the child's to print, as compiling's are
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    try:
        found = _Scan(tree).findings()
    except RecursionError:  # a tree nested past the stack: the sandbox runs it, nothing is shown here
        return ()
    return tuple(found[:MAX_FINDINGS])


def collect(source: str | None, reported: Iterable[str] = (), *,
            found: tuple[Tampering, ...] | None = None) -> tuple[str, ...]:
    """A report's `tampering`: the findings of `scan` in the source (`found`: scanned already), then
    what the child reported while it ran (opaque text, escaped), each once, at most MAX_FINDINGS."""
    if found is None:
        found = scan(source) if source is not None else ()
    texts = [t.text() for t in found]
    texts.extend(_printable(text) for text in reported if isinstance(text, str))
    return tuple(dict.fromkeys(t for t in texts if t))[:MAX_FINDINGS]


def _printable(text: str) -> str:
    text = escape_controls(text, keep="")
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "..."


class _Scan:
    """One walk over a module's syntax tree, with the names its imports and aliases bind."""

    def __init__(self, tree: ast.Module):
        self.tree = tree
        self.aliases: dict[str, str] = {}   # local name -> the dotted name it stands for
        self.found: dict[tuple[int, str], str] = {}
        self._bind(tree)

    # ------------------------------------------------------------ names
    def _bind(self, tree: ast.Module) -> None:
        stores: dict[str, int] = {}
        assigned: list[tuple[str, ast.expr]] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname is not None:
                        self.aliases[alias.asname] = alias.name
                    else:  # `import a.b` binds `a`
                        head = alias.name.split(".", 1)[0]
                        self.aliases[head] = head
            elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
                for alias in node.names:
                    if alias.name != "*":
                        self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                stores[node.id] = stores.get(node.id, 0) + 1
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                stores[node.name] = stores.get(node.name, 0) + 1
            elif isinstance(node, ast.arg):
                stores[node.arg] = stores.get(node.arg, 0) + 1
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                assigned.append((node.targets[0].id, node.value))
        # A plain alias (`F = torch.nn.functional`, `h = sys.modules.get("judge.runs.calls")`) stands for
        # what it names, when the name is bound nowhere else (a variable reused for other values is
        # not followed).
        for _ in range(3):  # aliases of aliases, a few deep
            for name, value in assigned:
                target = self.resolve(value) or self.fetched(value, bound=True)
                if target is not None and stores.get(name) == 1 and name not in self.aliases:
                    self.aliases[name] = target

    def resolve(self, node: ast.AST) -> str | None:
        """The dotted name `node` stands for when it is rooted in an import (or an unbound name), else None."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        root = self.aliases.get(node.id, node.id if node.id in _UNBOUND else None)
        if root is None:
            return None
        return ".".join([root, *reversed(parts)])

    def fetched(self, node: ast.AST, bound: bool = False) -> str | None:
        """The module a call or subscript fetches by its name (`sys.modules["m"]`, `sys.modules.get("m")`,
        `importlib.import_module("m")`, `__import__("m")`), else None; `bound`: the module the call
        returns (`__import__("a.b")` returns `a`) rather than the one it names."""
        if isinstance(node, ast.Subscript) and self.resolve(node.value) == "sys.modules":
            return _text(node.slice)
        if not isinstance(node, ast.Call) or not node.args:
            return None
        if isinstance(node.func, ast.Attribute) and node.func.attr == "get" and \
                self.resolve(node.func.value) == "sys.modules":
            return _text(node.args[0])
        func = self.function(node)
        name = _text(node.args[0])
        if func == "__import__" and name is not None and bound:
            return name.split(".", 1)[0]
        return name if func in _IMPORTERS else None

    def function(self, node: ast.Call) -> str | None:
        """The dotted name a call calls: through imports, a builtin by its name, `object.__setattr__`."""
        func = node.func
        if isinstance(func, ast.Name) and func.id not in self.aliases:
            return func.id
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id in ("object", "type") and func.value.id not in self.aliases:
            return f"{func.value.id}.{func.attr}"
        return self.resolve(func)

    # ------------------------------------------------------------ findings
    def add(self, node: ast.AST, key: str, **words: str) -> None:
        line = getattr(node, "lineno", 0)
        if (line, key) not in self.found:
            self.found[(line, key)] = _printable(_RULES[key].wording.format(**words))

    def findings(self) -> list[Tampering]:
        for node in ast.walk(self.tree):
            self.visit(node)
        # A line says the most telling thing once: "through sys.modules" less than the judge's module it
        # fetches, "reaches into the judge" less than what it rebinds there.
        said = {(line, key) for line, key in self.found}
        redundant = {("modules", "judge"), ("judge", "rebind")}  # (this, on a line where that is said)
        return [Tampering(line or None, what) for (line, key), what in
                sorted(self.found.items(), key=lambda item: (item[0][0], _ORDER[item[0][1]]))
                if not any(key == this and (line, that) in said for this, that in redundant)]

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                self.named(node, alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            self.named(node, node.module)
            for alias in node.names:
                if alias.name != "*":
                    self.named(node, f"{node.module}.{alias.name}")
        elif isinstance(node, (ast.Attribute, ast.Name)):
            self.reference(node)
        elif isinstance(node, ast.Subscript):
            self.subscript(node)
        elif isinstance(node, ast.Call):
            self.call(node)
        elif isinstance(node, ast.ClassDef):
            self.class_body(node)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    self.defined(key, key.value)

    def named(self, node: ast.AST, name: str) -> None:
        """`name`, a dotted name the code uses or imports, against the rules' names."""
        for rule in RULES:
            if any(name == n or name.startswith(n + ".") for n in rule.names):
                self.add(node, rule.key, name=name)

    def defined(self, node: ast.AST, name: str) -> None:
        for rule in RULES:
            if name in rule.defines:
                self.add(node, rule.key, name=name)

    def reference(self, node: ast.Attribute | ast.Name) -> None:
        if isinstance(node, ast.Attribute):
            for rule in RULES:
                if node.attr in rule.attributes:
                    self.add(node, rule.key, name=f".{node.attr}")
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                self.defined(node, node.attr)
                self.rebound(node, node.value, node.attr)
        name = self.resolve(node) if isinstance(node.ctx, ast.Load) else None  # a binding reaches nothing
        if name is not None:
            self.named(node, name)

    def rebound(self, node: ast.AST, owner_node: ast.AST, attribute: str | None) -> None:
        """An attribute of `owner_node` set or deleted: a finding when the owner is a library's."""
        owner = self.resolve(owner_node)
        if owner is None:
            return
        name = owner if attribute is None else f"{owner}.{attribute}"
        if name in CONFIGURATION:
            return
        last = owner.rsplit(".", 1)[-1]
        owner_words = ("the judge's module" if owner == "judge" or owner.startswith("judge.") else
                       "a library class" if last[:1].isupper() else "a library module")
        self.add(node, "rebind", name=name, owner=owner_words)

    def subscript(self, node: ast.Subscript) -> None:
        fetched = _text(node.slice)
        if self.resolve(node.value) == "sys.modules" and fetched is not None:
            self.module_by_name(node, fetched, through=True)
        # `torch.__dict__["grad"] = f`, `vars(torch)["grad"] = f`: rebinding through the namespace
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            space = node.value
            if isinstance(space, ast.Attribute) and space.attr == "__dict__":
                self.rebound(node, space.value, fetched)
            elif isinstance(space, ast.Call) and self.function(space) == "vars" and len(space.args) == 1:
                self.rebound(node, space.args[0], fetched)

    def call(self, node: ast.Call) -> None:
        func = self.function(node)
        if func in _SETTERS and node.args:
            attribute = _text(node.args[1]) if len(node.args) > 1 else None
            self.rebound(node, node.args[0], attribute)
            if attribute is not None:
                self.defined(node, attribute)
            return
        fetched = self.fetched(node)
        if fetched is not None:
            self.module_by_name(node, fetched, through=func not in _IMPORTERS)

    def module_by_name(self, node: ast.AST, name: str, through: bool) -> None:
        """A module fetched by its name, through sys.modules or an import function."""
        if name == "judge" or name.startswith("judge."):
            self.add(node, "judge", name=f"{name} through sys.modules" if through else name)
        elif not through:
            self.named(node, name)

    def class_body(self, node: ast.ClassDef) -> None:
        for rule in RULES:
            if node.name in rule.classes:
                self.add(node, rule.key, name=node.name)
        for base in node.bases:
            last = self.resolve(base) or (base.id if isinstance(base, ast.Name) else
                                          base.attr if isinstance(base, ast.Attribute) else "")
            last = last.rsplit(".", 1)[-1]
            for rule in RULES:
                if last in rule.bases:
                    self.add(base, rule.key, name=last)
        for statement in node.body:
            for name, where in _body_names(statement):
                self.defined(where, name)


def _body_names(statement: ast.stmt) -> Iterator[tuple[str, ast.AST]]:
    """The names a statement of a class body defines, each with where."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield statement.name, statement
    elif isinstance(statement, ast.Assign):
        for target in statement.targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    yield node.id, node
    elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)) and isinstance(statement.target, ast.Name):
        yield statement.target.id, statement.target


def _text(node: ast.AST | None) -> str | None:
    """A string constant's value, else None."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
