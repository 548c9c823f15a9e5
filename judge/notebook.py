"""The notebook API: judge a function object where it was written.

    from judge import check
    check("patchify", patchify)              # examples, hidden tests, checks
    check("patchify", patchify, examples_only=True)

A submission always runs in the sandbox as source text, never as the live
object, so `check` recovers the function's source with `inspect` and rebuilds
a small module around it: the modules it uses (`import torch`), the helper
functions it calls, and simple constants (numbers, strings, tuples of them).
Anything else it depends on (a closure, a tensor defined in another cell, a
function typed at the plain `>>>` prompt) cannot be carried into the sandbox,
and `check` says so in one line naming what and why. The source text or a
file path is accepted as well.

Checks go to the warm judge `judge run` uses (judge.warm), started in the
background by the first one when none runs: the kernel then holds no fork
server of its own, every check after the first costs a fork and the tests,
and `judge run` in a terminal beside the notebook is warm too. Where no warm
judge can start (or `JUDGE_NO_WARM=1`), the kernel judges itself.

The result renders compactly in Jupyter (`_repr_html_`: one green "Correct" or one
red line with the first failure and its named mistake, every test folded below) and as the CLI's text
in a terminal; attempts are recorded in the progress database like `judge run`.
"""
from __future__ import annotations

import ast
import builtins
import html
import importlib
import inspect
import os
import sysconfig
import textwrap
import types
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from judge.base.errors import ConfigError
from judge.base.escape import escape_controls
from judge.render import check_html, problems_html, render_text, to_text
from judge.base.report import Report
from judge.base.outcomes import Verdict

if TYPE_CHECKING:
    from judge.base.submission import Submission


class SourceUnavailable(ConfigError):
    """The function's source cannot be recovered or carried into the sandbox."""


class NotebookError(Exception):
    """A usage error in a notebook, shown as one line instead of a traceback into the judge.

    IPython and Jupyter call `_render_traceback_` to display an exception; a
    plain Python prompt shows the usual (short: the cause is suppressed) traceback.
    """

    def _render_traceback_(self) -> list[str]:
        return [f"\x1b[31merror:\x1b[0m {self}"]


def _one_line(exc: ConfigError) -> NotebookError:
    from judge.base.errors import ConfigErrors

    text = "; ".join(exc.lines()) if isinstance(exc, ConfigErrors) else str(exc)
    return NotebookError(text)


# ---------------------------------------------------------------- public API

def check(problem_id: str, solution: Callable | str | os.PathLike, *, examples_only: bool = False,
          problems_dir: str | os.PathLike | None = None, judge: Any = None,
          record: bool | None = None) -> "CheckResult":
    """Judge `solution` (a function, source text or a file path) on `problem_id`.

    Pass `judge=` a `judge.Judge` to reuse its warm sandbox across calls;
    otherwise one is started and closed for this call. `record=False` keeps
    the attempt out of the progress database. A usage error (an unknown
    problem, something that is not a function) is one line, not a traceback.
    """
    from judge.judging.session import Judge

    try:
        if judge is None:
            from judge.model.problemset import ProblemSet

            problem = ProblemSet.find(problems_dir).get(problem_id)
            submission = solution_source(solution, problem.entry_point)
            report = _warm_report(problems_dir, problem.id, submission, examples_only, record)
            if report is None:
                with Judge(problems_dir, record=record) as own:
                    report = own.submit(problem.id, submission, examples_only=examples_only, record=record)
        else:
            problem = judge.problem(problem_id)
            submission = solution_source(solution, problem.entry_point)
            report = judge.submit(problem.id, submission, examples_only=examples_only, record=record)
    except ConfigError as exc:
        raise _one_line(exc) from None
    return CheckResult(report, examples_only, submission.source)


def _warm_report(problems_dir: str | os.PathLike | None, problem_id: str, submission: "Submission",
                 examples_only: bool, record: bool | None) -> Report | None:
    """The check judged by the warm judge (judge.warm), or None: judge it in this kernel."""
    from judge.warm.client import judge_source

    try:
        source = submission.source.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: the kernel's own run says what is wrong
        return None
    origin = str(submission.path.resolve()) if submission.path is not None else None
    data = judge_source(None if problems_dir is None else os.fspath(problems_dir), problem_id, source,
                        submission.label, origin=origin, examples_only=examples_only, record=record)
    return None if data is None else Report.from_json(data)


def practice(problem_id: str, problems_dir: str | os.PathLike | None = None) -> "ProblemHandle":
    """One problem to work on in a notebook, as learntools does: `q = judge.practice("patchify")`,
    then `q.show()`, `q.check(fn)`, `q.hint()`, `q.solution()`."""
    from judge.judging.session import Judge

    try:
        j = Judge(problems_dir)
        return ProblemHandle(j, j.problem(problem_id), problems_dir)
    except ConfigError as exc:
        raise _one_line(exc) from None


def problems(problems_dir: str | os.PathLike | None = None) -> "ProblemList":
    """Every problem of the problem set in course order (as `judge list`), with your status; a table in
    a notebook, a unit's extras marked."""
    from judge.model.problemset import ProblemSet
    from judge.learner.tutor import Tutor

    try:
        tutor = Tutor(ProblemSet.find(problems_dir))
        listing, extras = tutor.listing(), tutor.extras()
    except ConfigError as exc:
        raise _one_line(exc) from None
    warnings = [*([listing.warning] if listing.warning else []),
                *(f"{b.id} is not listed: {b.error}" for b in listing.broken)]
    return ProblemList([ProblemSummary(e.problem.id, e.problem.title, e.problem.difficulty, e.problem.framework,
                                       tuple(e.problem.tags), e.status, e.problem.id in extras)
                        for e in listing.entries],
                       "; ".join(warnings) or None)


# ---------------------------------------------------------------- results

@dataclass
class CheckResult:
    """What `check` returns: the report, as text (repr) or an HTML table (Jupyter)."""

    report: Report
    examples_only: bool
    source: str

    @property
    def verdict(self) -> Verdict:
        return self.report.verdict

    @property
    def accepted(self) -> bool:
        return self.report.accepted

    @property
    def passed(self) -> int:
        return self.report.passed

    @property
    def total(self) -> int:
        return self.report.total

    @property
    def tests(self) -> list:
        return self.report.tests

    def to_json(self) -> dict:
        """The report as `judge run --json` gives it (what came from the submission escaped)."""
        return self.report.shown_json()

    def text(self, colour: bool = False) -> str:
        lines = [f"warning: {escape_controls(w)}" for w in self.report.warnings]
        return "\n".join(lines + [render_text(self.report, values=self.examples_only, colour=colour)])

    def __repr__(self) -> str:
        return self.text()

    __str__ = __repr__

    def _repr_html_(self) -> str:
        """Compact, as learntools: one green "Correct" or one red line; every test folded below."""
        return check_html(self.report, self.examples_only)


class ProblemHandle:
    """A problem in a notebook: `show()`, `check(fn)`, `hint()`, `solution()` (one warm judge for all)."""

    def __init__(self, judge: Any, problem: Any, problems_dir: str | os.PathLike | None = None):
        self._judge = judge
        self._problems_dir = problems_dir
        self.problem = problem
        self.id = problem.id

    def show(self) -> "Statement":
        """The statement, signature and limits; Markdown in Jupyter, text elsewhere."""
        return Statement(self.problem)

    def check(self, solution: Callable | str | os.PathLike, *, examples_only: bool = False,
              record: bool | None = None) -> CheckResult:
        try:
            submission = solution_source(solution, self.problem.entry_point)
            report = _warm_report(self._problems_dir, self.id, submission, examples_only, record)
            if report is None:  # judged in this kernel, by its own fork server
                report = self._judge.submit(self.problem.id, submission, examples_only=examples_only, record=record)
        except ConfigError as exc:
            raise _one_line(exc) from None
        return CheckResult(report, examples_only, submission.source)

    def hint(self, level: int | None = None) -> "Text":
        """The next hint (the level reached is remembered, as `judge hint` does), or hint `level`."""
        try:
            shown, _ = self._judge.tutor.hint(self.id, level)
        except ConfigError as exc:
            raise _one_line(exc) from None
        return Text("\n".join(shown.lines("notebook")))

    def solution(self, *, confirm: bool = False) -> "Text":
        """The reference and editorial once solved; before that, only with `confirm=True` (recorded)."""
        from judge.learner.tutor import NotSolvedYet

        try:
            shown, _ = self._judge.tutor.solution(self.id, confirmed=confirm)
        except NotSolvedYet:
            raise NotebookError(f"{self.id} is not solved yet: call .solution(confirm=True) to see it anyway "
                                f"(your progress will show it was viewed before solving)") from None
        except ConfigError as exc:
            raise _one_line(exc) from None
        return Text("\n".join(shown.lines()))

    def close(self) -> None:
        self._judge.close()

    def __repr__(self) -> str:
        return f"<problem {self.id}: {self.problem.title}; .show() .check(fn) .hint() .solution()>"


@dataclass(frozen=True)
class Text:
    """Plain text that prints as itself (no quotes) in a notebook."""

    text: str

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(self.text)}</pre>"


@dataclass(frozen=True)
class Statement:
    problem: Any

    def markdown(self) -> str:
        from judge.render import problem_markdown

        return problem_markdown(self.problem)

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __repr__(self) -> str:
        from judge.render import render_markdown

        return to_text(render_markdown(self.markdown()))


@dataclass(frozen=True)
class ProblemSummary:
    id: str
    title: str
    difficulty: str
    framework: str
    tags: tuple[str, ...]
    status: str
    extra: bool = False   # only a unit's extra practice: no unit's completion counts it


class ProblemList(list):
    """A list of `ProblemSummary` that shows itself as a table."""

    def __init__(self, items: list[ProblemSummary], warning: str | None = None):
        super().__init__(items)
        self.warning = warning

    def __repr__(self) -> str:
        if not self:
            return "no problems"
        width = max(len(p.id) for p in self)
        lines = [f"warning: {self.warning}"] if self.warning else []
        lines += [f"{p.status:<9}  {p.id.ljust(width)}  {'(extra) ' if p.extra else ''}{p.title}  "
                  f"[{p.difficulty}, {p.framework}]" for p in self]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return problems_html(self)


# ---------------------------------------------------------------- source recovery

def solution_source(solution: Callable | str | os.PathLike, entry_point: str) -> "Submission":
    """The submission a function object, a file path or source text stands for."""
    from judge.base.submission import Submission

    if isinstance(solution, os.PathLike) or (isinstance(solution, str) and solution.endswith(".py")
                                              and "\n" not in solution):
        return Submission.from_file(solution, label=str(solution))
    if isinstance(solution, str):
        return Submission.from_text(solution, "<source text>")
    return Submission.from_text(function_source(solution, entry_point),
                                f"<function {getattr(solution, '__qualname__', '?')}>")


def function_source(fn: Callable, entry_point: str) -> str:
    """A self-contained module defining `entry_point` from the function object `fn`."""
    name = getattr(fn, "__name__", repr(fn))
    if not isinstance(fn, types.FunctionType):
        what = f"{type(fn).__name__} {name}" if hasattr(fn, "__name__") else f"{type(fn).__name__} ({fn!r:.40})"
        raise SourceUnavailable(f"check() judges a function defined with `def`; got {what}")
    if name == "<lambda>":
        raise SourceUnavailable("check() judges a function defined with `def`, not a lambda: "
                                f"write `def {entry_point}(...):` in a cell")
    if fn.__code__.co_freevars:
        raise SourceUnavailable(f"`{name}` uses variables of an enclosing function "
                                f"({', '.join(fn.__code__.co_freevars)}), which cannot be carried into the "
                                "sandbox; define it at the top level of a cell")
    parts: dict[str, str] = {}          # global name -> the statement that defines it
    body = _collect(fn, parts, seen={name})
    # imports, then constants, then helper functions, as a person would write the file
    if name != entry_point and entry_point in parts:
        # The function calls an earlier function of the entry point's name: the alias below would
        # make that call recurse into itself, so the earlier one travels under another name.
        earlier = f"_earlier_{entry_point}"
        parts[entry_point] = rename_global(parts[entry_point], entry_point, earlier)
        body = rename_global(body, entry_point, earlier)
        for key in list(parts):
            if key != entry_point:
                parts[key] = rename_global(parts[key], entry_point, earlier)
    order = sorted(parts.values(), key=lambda text: 0 if text.startswith(("import ", "from ")) else
                   2 if text.lstrip().startswith(("def ", "@", "async def ")) else 1)
    module = "\n".join(order).replace("\ndef ", "\n\n\ndef ")
    alias = f"\n\n{entry_point} = {name}\n" if name != entry_point else "\n"
    return f"# judged from the function object `{name}`\n{module}\n\n{body.rstrip()}{alias}"


def rename_global(source: str, old: str, new: str) -> str:
    """`source` with every use and definition of the global name `old` spelled `new` (layout kept)."""
    tree = ast.parse(source)
    spots: list[tuple[int, int, int]] = []   # (line, column, length) of each occurrence of the name
    lines = source.splitlines(keepends=True)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == old:
            spots.append((node.lineno, node.col_offset, len(old)))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == old:
            line = lines[node.lineno - 1]
            column = line.index(old, line.index("def") + 3)
            spots.append((node.lineno, len(line[:column].encode("utf-8")), len(old)))
    for lineno, column, length in sorted(spots, reverse=True):  # columns are UTF-8 byte offsets, as ast's
        encoded = lines[lineno - 1].encode("utf-8")
        lines[lineno - 1] = (encoded[:column] + new.encode("utf-8") + encoded[column + length:]).decode("utf-8")
    return "".join(lines)


def _read_source(obj: Any, name: str) -> str:
    try:
        return textwrap.dedent(inspect.getsource(obj))
    except (OSError, TypeError) as exc:
        raise SourceUnavailable(
            f"cannot recover the source of `{name}` ({exc}): functions typed at the plain Python prompt or "
            "made by exec() have no source to read. Define it in a file or a notebook cell, or pass the "
            "source text or a file path to check() instead") from None


def _collect(fn: types.FunctionType, parts: dict[str, str], seen: set[str]) -> str:
    """The source of `fn`, adding to `parts` what its free global names need."""
    source = _read_source(fn, fn.__name__)
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise SourceUnavailable(f"the recovered source of `{fn.__name__}` does not parse ({exc.msg}); "
                                "pass the source text or a file path instead") from None
    for name in sorted(_free_names(tree) - seen):
        if name in fn.__globals__:
            seen.add(name)
            value = fn.__globals__[name]
            parts[name] = _define(name, value, parts, seen)
        elif not hasattr(builtins, name):
            pass  # an undefined name fails at call time in the sandbox too, with the user's NameError
    return source


def _define(name: str, value: Any, parts: dict[str, str], seen: set[str]) -> str:
    """A statement that recreates the global `name` in the sandbox's module."""
    if isinstance(value, types.ModuleType):
        module = value.__name__
        return f"import {module}" if module == name else f"import {module} as {name}"
    if isinstance(value, types.FunctionType) and _is_user_code(value):
        if value.__code__.co_freevars:
            raise SourceUnavailable(f"helper `{name}` uses variables of an enclosing function; "
                                    "define it at the top level of a cell")
        source = _collect(value, parts, seen)
        return source if value.__name__ == name else f"{source}\n{name} = {value.__name__}"
    importable = _import_statement(name, value)
    if importable:
        return importable
    if _is_literal(value):
        return f"{name} = {value!r}"
    raise SourceUnavailable(
        f"the function uses the global `{name}` (a {type(value).__name__}), which cannot be carried into the "
        "sandbox; define it inside the function, or make it a number, string or tuple constant")


def _is_user_code(fn: types.FunctionType) -> bool:
    """A function of the user's own code (a notebook, a script, a local module), not an installed library.

    The sandbox can import installed packages and the standard library, but
    not the user's local modules, so their functions travel as source.
    """
    if fn.__module__ in (None, "__main__"):
        return True
    try:
        path = Path(inspect.getsourcefile(fn) or "").resolve()
    except TypeError:
        return True
    libraries = {Path(p).resolve() for key in ("stdlib", "platstdlib", "purelib", "platlib")
                 if (p := sysconfig.get_paths().get(key))}
    return not any(path.is_relative_to(lib) for lib in libraries)


def _import_statement(name: str, value: Any) -> str | None:
    module, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if not module or not qualname or module == "__main__" or "." in qualname or "<" in qualname:
        return None
    try:
        if getattr(importlib.import_module(module), qualname, None) is not value:
            return None
    except ImportError:
        return None
    return f"from {module} import {qualname}" + (f" as {name}" if name != qualname else "")


def _is_literal(value: Any) -> bool:
    try:
        return ast.literal_eval(repr(value)) == value and type(ast.literal_eval(repr(value))) is type(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False


def _free_names(tree: ast.AST) -> set[str]:
    """Names read anywhere in `tree` that nothing in it binds (its globals, roughly)."""
    loaded, bound = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = node.args
            bound.update(x.arg for x in a.posonlyargs + a.args + a.kwonlyargs)
            bound.update(x.arg for x in (a.vararg, a.kwarg) if x is not None)
            if not isinstance(node, ast.Lambda) and node is not getattr(tree, "body", [None])[0]:
                bound.add(node.name)
        elif isinstance(node, ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return loaded - bound
