"""The packages' order, read from judge/'s source: a lower package never imports a higher one.

Bottom to top. `base` is the vocabulary every package shares; the faces sit on top and may use each
other (the warm judge is served by the web page's server: web and warm import each other, the one
circle). Every import counts, a function-level one included; one inside `if TYPE_CHECKING:` names a
type for the reader and is not followed by the program, so it does not.
"""
from __future__ import annotations

import ast
from pathlib import Path

JUDGE = Path(__file__).resolve().parent.parent / "judge"

ORDER = ("base", "experiments", "runs", "sandbox", "checks", "model", "render", "learner", "judging",
         "authoring", "importers")
FACES = ("notebook", "cli", "warm", "web", "service", "__main__", "__init__")
# Arrows that run up, each with its reason: none. The one circle is among the faces (web and warm).
ALLOWED_UP: set[tuple[str, str]] = set()


def _package(path: Path) -> str:
    return path.relative_to(JUDGE).parts[0].removesuffix(".py")


def _rank(package: str) -> int:
    if package in FACES:
        return len(ORDER)
    assert package in ORDER, f"judge/{package} is in no layer: add it to ORDER or FACES in {__file__}"
    return ORDER.index(package)


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(tree: ast.AST, module: str, is_package: bool):
    """(line, imported judge module name) for every import outside `if TYPE_CHECKING:` blocks."""
    todo = [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if _type_checking(child):
                todo.extend(child.orelse)
                continue
            todo.append(child)
            if isinstance(child, ast.Import):
                yield from ((child.lineno, a.name) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = module.split(".")[: len(module.split(".")) - (child.level - (1 if is_package else 0))]
                    base = ".".join(anchor + ([child.module] if child.module else []))
                yield from ((child.lineno, f"{base}.{a.name}") for a in child.names)


def _arrows():
    for path in sorted(JUDGE.rglob("*.py")):
        parts = list(path.relative_to(JUDGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        module = ".".join(parts[:-1] if is_package else parts)
        for line, name in _imports(ast.parse(path.read_text(), str(path)), module, is_package):
            parts = name.split(".")
            if parts[0] != "judge" or len(parts) < 2 or not ((JUDGE / parts[1]).is_dir()
                                                             or (JUDGE / f"{parts[1]}.py").is_file()):
                continue  # not the judge's, or the package itself (`import judge`, `from judge import check`)
            yield path, line, _package(path), parts[1]


def test_every_package_has_a_layer():
    for entry in JUDGE.iterdir():
        if entry.name != "__pycache__" and (entry.is_dir() or entry.suffix == ".py"):
            _rank(entry.name.removesuffix(".py"))


def test_no_package_imports_a_higher_one():
    up = sorted(f"{path.relative_to(JUDGE.parent)}:{line}: {low} imports {high}"
                for path, line, low, high in _arrows()
                if low != high and _rank(high) > _rank(low) and (low, high) not in ALLOWED_UP)
    assert up == []


def test_the_check_sees_a_function_level_import():
    arrows = {(low, high) for _, _, low, high in _arrows()}
    assert ("judging", "render") in arrows  # grading draws the smallest input's text inside a function
    assert ("runs", "experiments") in arrows  # a training run is imported where a call needs it
