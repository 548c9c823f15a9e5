"""Starter files: what `judge start ID [PATH]` writes for a learner to fill in, and `--input FILE`.

A starter is the problem's contract as a module docstring (the statement, the
signature, the limits and how to run the judge), followed by the problem's
starter code, whose function body raises NotImplementedError. Judging it
untouched says "not attempted yet" (see judge.base.outcomes.NOT_ATTEMPTED). An
existing file is never overwritten unless the caller forces it.

An input template (`judge start ID --input FILE`) is the first public
example's inputs in the format `judge run ID FILE --input INPUT.yaml` reads, as
the problem's YAML states them, under comments saying what each form means:
a learner edits a working input rather than writing one from a description.
"""
from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from judge.base.errors import ConfigError
from judge.model.problem import Problem


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


def input_template(problem: Problem) -> str:
    """The YAML text of an input file for `judge run --input`: the first public example's inputs."""
    import yaml

    from judge.base.yamlfile import load_yaml

    examples = load_yaml(problem.path).get("examples") or []
    first = examples[0] if examples and isinstance(examples[0], dict) else {}
    inputs = first.get("inputs") if isinstance(first.get("inputs"), dict) else {}
    values = {name: _plain(inputs[name]) for name in problem.args if name in inputs}
    if not values:
        raise ConfigError("has no public example with inputs to start from", file=problem.path, field="examples")
    body = yaml.safe_dump(values, sort_keys=False, default_flow_style=None, allow_unicode=True, width=100)
    name = first.get("name", "the first example")
    return "\n".join([
        f"# Your own input for {problem.id}: judge run {problem.id} YOUR_FILE.py --input THIS_FILE.yaml",
        f"# runs your function and the reference on it and shows both outputs. Arguments: {', '.join(problem.args)}.",
        f"# Filled in from the public example {name}; change any value. A value is plain YAML (a number, a",
        "# string, a list: a tensor's or an array's values) or a generator, such as",
        "#   {arange: [1, 1, 4, 4]}      0, 1, 2, ... in that shape (float32)",
        "#   {normal: [4, 3, 96, 96]}    standard normal values; {uniform: ...}, {randint: ...}, {full: ...}",
        "# (docs/authoring.md lists every generator and its options, such as dtype: float64).",
        "",
    ]) + body


def write_input_template(problem: Problem, path: Path, *, force: bool = False) -> Path:
    """Write `input_template(problem)` to `path`; refuses to replace an existing file unless `force`."""
    if path.exists() and not force:
        raise ConfigError("already exists; pass --force to overwrite it", file=path)
    if path.suffix not in (".yaml", ".yml"):
        raise ConfigError("an input file is YAML: give a path ending in .yaml", file=path)
    if not path.parent.is_dir():
        raise ConfigError(f"folder {path.parent} does not exist; create it first (a typo in the path?)", file=path)
    text = input_template(problem)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write the input: {exc.strerror or exc}", file=path) from None
    return path


def _plain(value: object) -> object:
    """A YAML value as plain dicts and lists (the loader's mappings carry line numbers)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


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
