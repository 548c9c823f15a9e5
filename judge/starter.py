"""Starter files: what `judge start ID [PATH]` writes for a learner to fill in.

A starter is the problem's contract as a module docstring (the statement, the
signature, the limits and how to run the judge), followed by the problem's
starter code, whose function body raises NotImplementedError. Judging it
untouched says "not attempted yet" (see judge.verdict.NOT_ATTEMPTED). An
existing file is never overwritten unless the caller forces it.
"""
from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from judge.errors import ConfigError
from judge.problem import Problem


def default_path(problem: Problem, path: Path | None) -> Path:
    """PATH as given, `PATH/<id>.py` for a directory, `./<id>.py` when omitted."""
    if path is None:
        return Path(f"{problem.id}.py")
    if path.is_dir():
        return path / f"{problem.id}.py"
    return path


def starter_source(problem: Problem, filename: str = "FILE") -> str:
    """The full text of the starter file; `filename` appears in the commands it suggests."""
    code = problem.starter.strip("\n") or _from_signature(problem)
    return f'"""{_docstring(problem, filename)}"""\n{_imports_gap(code)}{code}\n'


def write_starter(problem: Problem, path: Path | None = None, *, force: bool = False) -> Path:
    """Write the starter for `problem`; refuses to replace an existing file unless `force`."""
    target = default_path(problem, path)
    if target.exists() and not force:
        raise ConfigError("already exists; pass --force to overwrite it (your work in it would be lost)",
                          file=target)
    if target.suffix != ".py":
        raise ConfigError("a starter is a Python file: give a path ending in .py", file=target)
    if not target.parent.is_dir():
        raise ConfigError(f"folder {target.parent} does not exist; create it first (a typo in the path?)",
                          file=target)
    try:
        target.write_text(starter_source(problem, str(target)), encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write the starter: {exc.strerror or exc}", file=target) from None
    return target


def _docstring(problem: Problem, filename: str) -> str:
    from judge.render import statement_markdown

    statement = statement_markdown(problem).strip()
    limits = f"{problem.limits.time_s:g} s per test, {problem.limits.memory_mb} MiB of memory"
    body = "\n".join([
        f"{problem.title}  [{problem.id}, {problem.difficulty}, {problem.framework}]",
        "",
        statement,
        "",
        "Signature:",
        f"    {problem.signature}",
        f"Limits: {limits}.",
        "",
        f"Try the public examples:   judge run {problem.id} {filename} --examples",
        f"Submit (hidden tests too): judge run {problem.id} {filename}",
        f"Stuck?                     judge hint {problem.id}" if problem.hints else "",
    ]).rstrip()
    # The statement is Markdown, which may hold backslashes or quotes; keep the docstring literal.
    return body.replace("\\", "\\\\").replace('"""', '\\"\\"\\"') + "\n"


def _from_signature(problem: Problem) -> str:
    """Starter code for a problem whose YAML gives none: its signature and a NotImplementedError."""
    signature = problem.signature.strip().rstrip(":")
    try:
        ast.parse(f"{signature}:\n    pass\n")
    except SyntaxError:
        raise ConfigError("is not a Python function signature; cannot build a starter from it",
                          file=problem.path, field="signature") from None
    imports = "import torch\n\n\n" if problem.framework == "torch" else "import numpy as np\n\n\n"
    body = textwrap.indent(f'"""{problem.title}."""\nraise NotImplementedError', "    ")
    return f"{imports}{signature}:\n{body}"


def _imports_gap(code: str) -> str:
    return "\n" if code.lstrip().startswith(("import", "from")) else "\n\n"
