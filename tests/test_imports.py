"""The package's layering, read from its source: the core never imports a face, and import circles are few.

Every import counts, a function-level one included (deferring an import hides a
dependency from the reader, not from the design). `from package import name`
depends on the submodule `name` when there is one, else on the package.
"""
from __future__ import annotations

import ast
from pathlib import Path

JUDGE = Path(__file__).resolve().parent.parent / "judge"

# The faces: thin layers over the library that a learner, an author or a course talks to.
FACES = ("judge.__main__", "judge.cli", "judge.notebook", "judge.web", "judge.warm", "judge.service")
MAX_CIRCLES = 2


def _modules() -> dict[str, Path]:
    found = {}
    for path in JUDGE.rglob("*.py"):
        parts = list(path.relative_to(JUDGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imported(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The judge modules `module` imports anywhere in its source."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            names.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names)
    found = set()
    for name in names:
        while name and name not in modules:  # `import judge.sandbox.isolation` -> that module
            name = name.rpartition(".")[0]
        if name and name != module:
            found.add(name)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {module: _imported(module, path, modules) for module, path in modules.items()}


def _is_face(module: str) -> bool:
    return any(module == face or module.startswith(face + ".") for face in FACES)


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


def test_the_graph_sees_function_level_and_relative_imports():
    graph = _graph()
    assert "judge.sandbox.runner" in graph["judge.sandbox.backend"]  # imported inside a method
    assert "judge.runs.contract" in graph["judge.runs.decisions"]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_core_module_imports_a_face():
    reaching_up = sorted(f"{module} imports {face}" for module, imported in _graph().items()
                         if not _is_face(module) for face in imported if _is_face(face))
    assert reaching_up == []


def test_import_circles_are_few_and_none_runs_through_a_face():
    circles = _circles(_graph())
    assert [c for c in circles if any(_is_face(m) for m in c)] == []
    assert len(circles) <= MAX_CIRCLES, circles
