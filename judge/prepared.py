"""A prepared problem: its cases, the reference's expected observations and its traps, ready to judge.

Preparing draws every input and runs (or loads from the cache) the trusted
reference; it happens once per problem version. `submit` then judges a
source: it runs the calls through an execution backend, grades the facts,
and records the attempt in the progress database when asked to.
"""
from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from judge import problem as problem_files
from judge.cache import ExpectedCache
from judge.cases import Case, build_case
from judge.contract import Backend, CallOutcome, Limits, LoadError, LoadKind, Program, RunResult
from judge.errors import ConfigError
from judge.grading import Expected, TrapSet, expect, grade
from judge.problem import Hidden, Problem, TestSpec
from judge.progress import ProgressStore, ProgressUnavailable
from judge.report import Report, TestResult
from judge.execute import ErrorInfo, describe_error
from judge.solution import load_function, load_module


@dataclass(frozen=True)
class PreparedProblem:
    """One problem ready to judge submissions; immutable, so threads may share it."""

    problem: Problem
    cases: tuple[Case, ...]
    expected: tuple[Expected, ...]
    traps: TrapSet | None
    limits: Limits                  # the problem's limits with the judge's thread count
    backend: Backend
    progress: ProgressStore | None = None   # where attempts are recorded; None: nowhere
    record: bool = False            # whether `submit` records unless told otherwise
    examples_only: bool = False

    def submit(self, source: str, label: str, *, record: bool | None = None, origin: str | None = None,
               graded: Path | None = None, on_result: Callable[[TestResult], None] | None = None) -> Report:
        """Judge `source`; `label` names it in the report (its file name is the program's).

        `record` overrides the default for this attempt; `origin` is what the progress database
        records (default: `label`); `graded` is the directory the source came from (no child may
        read it); `on_result` gets each test's result, in order, as soon as it is decided.
        """
        hidden = (str(Path(graded).resolve()),) if graded is not None else ()
        program = Program(source=source, filename=Path(label).name, entry_point=self.problem.entry_point,
                          framework=self.problem.framework, hidden=hidden)
        error = compile_error(source, program.filename)
        # A file that does not compile is reported without a sandbox: no fork server to wait for.
        backend = self.backend if error is None else _Unloadable(error)
        report = grade(self.problem, list(self.cases), list(self.expected), program, label, backend,
                       self.limits, self.traps, on_result=on_result)
        if self.record if record is None else record:
            self.record_attempt(report, source, origin or label)
        return report

    def record_attempt(self, report: Report, source: str, submission: str) -> str | None:
        """Add a judged run to the progress database (a starter is no attempt; without a store, nowhere).

        A failure is the report's warning; it is also returned (None: recorded, or nothing to record).
        The warm server calls this itself, after its client has the report.
        """
        if self.progress is None or report.not_attempted:
            return None
        try:
            self.progress.record(problem=self.problem.id, verdict=report.verdict.value, passed=report.passed,
                                 total=report.total, examples_only=self.examples_only, source=source,
                                 submission=submission, time_ms=report.time_ms)
        except ProgressUnavailable as exc:
            report.warnings.append(str(exc))
            return str(exc)
        return None


def compile_error(source: str, filename: str) -> ErrorInfo | None:
    """The error the child would report on loading `source` before running any of it (a SyntaxError),
    or None. Compiling executes nothing of the file, so the judge may do it itself; anything but
    the errors the child reports as a compile failure (e.g. a RecursionError) is left to the sandbox."""
    try:
        # Its warnings (an invalid escape) are the child's to print, in the submission's output.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(source, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:  # what the child's loader catches (judge.sandbox.worker)
        return describe_error(exc, filename, where="import")
    except (RecursionError, MemoryError):
        return None
    return None


class _Unloadable:
    """The backend for a file that does not compile: the run the sandbox would report, without running."""

    def __init__(self, error: ErrorInfo) -> None:
        self.error = error

    def run(self, program: Program, calls, limits: Limits, *, on_progress=None, node_limits=None) -> RunResult:
        result = RunResult(outcomes=[CallOutcome() for _ in calls],
                           load_error=LoadError(kind=LoadKind.COMPILE, error=self.error))
        if on_progress is not None:
            on_progress(result, len(calls))
        return result

    def close(self) -> None:
        pass


def prepare(problem: Problem, backend: Backend, *, cache: ExpectedCache | None, threads: int,
            progress: ProgressStore | None = None, record: bool = False,
            examples_only: bool = False) -> PreparedProblem:
    """Draw the cases, get the reference's observations (cached), and load the traps lazily."""
    # Loaded for examples only too: examples are compared with the hidden file's tolerance either way.
    hidden = problem_files.load_hidden(problem)
    cases, expected = expected_of(problem, hidden, cache, examples_only=examples_only)
    return PreparedProblem(problem, tuple(cases), tuple(expected), trap_set(problem, hidden),
                           replace(problem.limits, threads=threads), backend, progress, record, examples_only)


def prepare_input(problem: Problem, test: TestSpec, backend: Backend, *, threads: int) -> PreparedProblem:
    """One input of the learner's own, against the reference: nothing cached, nothing recorded."""
    hidden = problem_files.load_hidden(problem)
    case = build_case(problem, test, hidden.tolerance)
    expected = _reference_outputs(problem, hidden.reference, [case])
    return PreparedProblem(problem, (case,), tuple(expected), trap_set(problem, hidden),
                           replace(problem.limits, threads=threads), backend)


def expected_of(problem: Problem, hidden: Hidden | None, cache: ExpectedCache | None, *,
                examples_only: bool = False) -> tuple[list[Case], list[Expected]]:
    """The cases (examples, then hidden tests unless `examples_only` or `hidden` is None) and the
    reference's observations on them, through the cache."""
    reference_path = hidden.reference if hidden else problem.hidden_dir / "reference.py"
    tests = list(problem.examples) + (list(hidden.tests) if hidden and not examples_only else [])
    cases = [build_case(problem, test, hidden.tolerance if hidden else None) for test in tests]

    def compute() -> list[Expected]:
        return _reference_outputs(problem, reference_path, cases)

    return cases, (cache.expected(problem, hidden, cases, compute) if cache is not None else compute())


def trap_set(problem: Problem, hidden: Hidden) -> TrapSet | None:
    if not hidden.traps or hidden.traps_file is None:
        return None
    return TrapSet(hidden.traps, functools.partial(_trap_functions, problem, hidden))


def _trap_functions(problem: Problem, hidden: Hidden) -> dict[str, Callable]:
    """The trap module's functions, loaded when a failure is first diagnosed."""
    module = load_module(hidden.traps_file, f"_judge_traps_{problem.id}")
    functions = {t.function: getattr(module, t.function) for t in hidden.traps
                 if callable(getattr(module, t.function, None))}
    missing = [t.function for t in hidden.traps if t.function not in functions]
    if missing:
        raise ConfigError(f"defines no function(s) {', '.join(missing)}", file=hidden.traps_file, field="traps")
    return functions


def _reference_outputs(problem: Problem, reference_path: Path, cases: list[Case]) -> list[Expected]:
    reference = load_function(reference_path, problem.entry_point)
    return [expect(case, reference, reference_path) for case in cases]
