"""A prepared problem: its cases, the reference's expected observations and its traps, ready to judge.

Preparing draws every input and runs (or loads from the cache) the trusted
reference; it happens once per problem version. The traps' outputs share the
version's cache key: they are read (or made and written) on the first wrong
answer, or ahead by `run_traps_ahead` (`judge prepare`). `judge` then judges a
submission: it runs the calls through an execution backend and grades the
facts. It records nothing: `Judge.submit` records through the learner's tutor.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from judge import checks
from judge.checks import raises as raises_check
from judge.model import problem as problem_files
from judge.model.cache import ExpectedCache, TrapsEntry, cache_key
from judge.model.cases import MAIN, Case, build_case
from judge.runs.contract import Backend, CallOutcome, Limits, LoadError, LoadKind, Program, RunResult
from judge.base.errors import ConfigError
from judge.judging.budget import Budget, RunCosts
from judge.judging.expected import Expected, expect
from judge.judging.grading import grade, item_caps, unjudged
from judge.judging.traps import TrapSet
from judge.judging.mutants import Context
from judge.runs.calls import ErrorInfo, describe_error, run_call
from judge.model.problem import CheckSpec, Hidden, Problem, TestSpec
from judge.model.problemset import Example
from judge.base.quiet import quiet
from judge.base.report import Report, TestResult
from judge.judging.shrink import Shrinker
from judge.judging.slips import Slips
from judge.model.solution import load_function, load_module
from judge.base.submission import Submission


@dataclass(frozen=True)
class PreparedProblem:
    """One problem ready to judge submissions; immutable, so threads may share it."""

    problem: Problem
    cases: tuple[Case, ...]
    expected: tuple[Expected, ...]
    traps: TrapSet | None
    limits: Limits                  # the problem's limits with the judge's thread count
    backend: Backend
    examples_only: bool = False

    def judge(self, submission: Submission, *, on_result: Callable[[TestResult], None] | None = None,
              budget: Budget | None = None) -> Report:
        """Judge `submission`; `on_result` gets each test's result, in order, as soon as it is decided; with a
        `budget` (judge.judging.budget), a wrong answer is reported by its deadline and refined later.

        No child may read the folder the submission came from (a classmate's file beside it).
        """
        hidden = (str(submission.directory.resolve()),) if submission.directory is not None else ()
        source, entry_point = self.problem.program(submission.source)
        program = Program(source=source, filename=submission.filename,
                          entry_point=entry_point, framework=self.problem.framework, hidden=hidden)
        error = compile_error(submission.source, program.filename)
        # A file that does not compile is reported without a sandbox: no fork server to wait for.
        backend = self.backend if error is None else _Unloadable(error)
        if budget is not None and budget.costs is None:
            budget = replace(budget, costs=self.costs)   # the problem's own yardstick (judge.judging.budget)
        return grade(self.problem, list(self.cases), list(self.expected), program, submission.label, backend,
                     self.limits, self.traps, on_result=on_result, caps=self.caps, budget=budget)

    @functools.cached_property
    def costs(self) -> RunCosts:
        """What this problem's runs have cost so far: a budget's yardstick, kept while the problem is prepared."""
        return RunCosts()

    @functools.cached_property
    def caps(self) -> tuple[dict[str, int], ...]:
        """`grading.item_caps` of the expected values, counted once per prepared problem, not per submission."""
        return item_caps(self.expected)

    def unjudged(self, label: str, decision, *, on_result: Callable[[TestResult], None] | None = None) -> Report:
        """The report of a file that could not be run (`decision` from `judge.runs.decisions.of_unloadable`)."""
        return unjudged(self.problem, list(self.cases), label, decision, on_result=on_result)

    def run_traps_ahead(self) -> int:
        """Every trap's output on every case now (read from the cache, else made and written to it),
        so that no wrong answer waits for them; how many outputs."""
        if self.traps is None:
            return 0
        return self.traps.run_ahead(list(self.cases))  # each trap runs quiet (judge.judging.grading, judge.base.quiet)


def compile_error(source: str, filename: str) -> ErrorInfo | None:
    """The error the child would report on loading `source` before running any of it (a SyntaxError),
    or None. Compiling executes nothing of the file, so the judge may do it itself; anything but
    the errors the child reports as a compile failure (e.g. a RecursionError) is left to the sandbox."""
    try:
        # Its warnings (an invalid escape) are the child's to print, in the submission's output; judged in
        # threads, so not through catch_warnings, which swaps the process's filters (judge.base.quiet).
        with quiet():
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
            examples_only: bool = False) -> PreparedProblem:
    """Draw the cases, get the reference's observations (cached), and load the traps lazily (their
    outputs from the cache too, when a wrong answer first needs one)."""
    # Loaded for examples only too: examples are compared with the hidden file's tolerance either way.
    hidden = problem_files.load_hidden(problem)
    cases = cases_of(problem, hidden, examples_only=examples_only)
    # One key for both entries of this version: computing it encodes every input.
    key = cache_key(problem, hidden, cases) if cache is not None and cache.enabled else None
    expected = _make_expected(problem, hidden, cases, cache, key)
    entry = cache.traps_entry(problem.id, key) if cache is not None and key is not None else None
    return PreparedProblem(problem, tuple(cases), tuple(expected), trap_set(problem, hidden, cases, entry),
                           replace(problem.limits, threads=threads), backend, examples_only)


def prepare_input(problem: Problem, test: TestSpec, backend: Backend, *, threads: int) -> PreparedProblem:
    """One input of the learner's own, against the reference: nothing cached, nothing recorded.

    Where the reference raises on it, raising is what the input expects: the test checks that the
    submission raises the same builtin exception; the example's values show what the reference said.
    """
    hidden = problem_files.load_hidden(problem)
    case = build_case(problem, test, hidden.tolerance)
    reference = hidden.reference_function(problem.entry_point)
    with quiet():
        raised = run_call(reference, case.calls[MAIN], str(hidden.reference)).error
    if raised is not None:
        check = CheckSpec(checks.name_of(raises_check), {"type": _most_specific(raised.bases)}, 1)
        case = build_case(problem, replace(test, checks=(check,)), hidden.tolerance)
    expected = [expect(case, reference, hidden.reference)]
    return PreparedProblem(problem, (case,), tuple(expected), trap_set(problem, hidden),
                           replace(problem.limits, threads=threads), backend)


def _most_specific(bases: tuple[str, ...]) -> str:
    """The most derived of the builtin exception classes an error is an instance of."""
    import builtins

    classes = [getattr(builtins, name) for name in bases if isinstance(getattr(builtins, name, None), type)]
    return max(classes, key=lambda c: len(c.__mro__)).__name__ if classes else "Exception"


def expected_of(problem: Problem, hidden: Hidden | None, cache: ExpectedCache | None, *,
                examples_only: bool = False) -> tuple[list[Case], list[Expected]]:
    """The cases (examples, then hidden tests unless `examples_only` or `hidden` is None) and the
    reference's observations on them, through the cache."""
    cases = cases_of(problem, hidden, examples_only=examples_only)
    return cases, _make_expected(problem, hidden, cases, cache)


def examples(problem: Problem, cache: ExpectedCache | None) -> list[Example]:
    """The public examples with the reference's outputs (`judge show`, the problem page).

    Through the cache: a hit spares importing the reference (and, for torch problems, torch).
    """
    cases, expected = expected_of(problem, None, cache)
    return [Example(case, want) for case, want in zip(cases, expected)]


def cases_of(problem: Problem, hidden: Hidden | None, *, examples_only: bool = False) -> list[Case]:
    """The examples, then the hidden tests unless `examples_only` or `hidden` is None."""
    tests = list(problem.examples) + (list(hidden.tests) if hidden and not examples_only else [])
    return [build_case(problem, test, hidden.tolerance if hidden else None) for test in tests]


def _make_expected(problem: Problem, hidden: Hidden | None, cases: list[Case], cache: ExpectedCache | None,
                   key: str | None = None) -> list[Expected]:
    def compute() -> list[Expected]:
        return _reference_outputs(problem, hidden, cases)

    return cache.expected(problem, hidden, cases, compute, key=key) if cache is not None else compute()


def trap_set(problem: Problem, hidden: Hidden, cases: Sequence[Case] = (), entry: TrapsEntry | None = None
             ) -> TrapSet:
    """The problem's traps and slip models (judge.judging.slips); with `entry`, the traps' outputs on `cases`
    are kept there (judge.model.cache)."""
    traps = hidden.traps if hidden.traps_file is not None else ()
    context = Context(framework=problem.framework, entry_point=problem.entry_point)
    slips = Slips(functools.partial(_trusted_sources, problem, hidden), context, problem.args)
    reference = functools.cache(functools.partial(hidden.reference_function, problem.entry_point))
    shrinker = Shrinker(problem, reference, hidden.tolerance, tuple(c for c in cases if c.test.public), tuple(cases))
    return TrapSet(traps, functools.partial(_trap_functions, problem, hidden), entry, tuple(cases), slips, shrinker)


def _trusted_sources(problem: Problem, hidden: Hidden) -> list[tuple[str, str]]:
    """(label, source) of the trusted solutions the slip models are made from: the reference, then the
    accepted known submissions (the problem set's; a pack may have none)."""
    found = [("reference", hidden.reference_source())]
    folder = problem.submissions_dir / "accepted"
    for path in sorted(folder.glob("*.py")) if folder.is_dir() else []:
        try:
            found.append((path.name, path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue  # judge validate reports a known submission that cannot be read; no model comes of it
    return found


def _trap_functions(problem: Problem, hidden: Hidden) -> dict[str, Callable]:
    """The trap module's functions, loaded when a failure is first diagnosed."""
    module = load_module(hidden.traps_file, f"_judge_traps_{problem.id}")
    functions = {t.function: getattr(module, t.function) for t in hidden.traps
                 if callable(getattr(module, t.function, None))}
    missing = [t.function for t in hidden.traps if t.function not in functions]
    if missing:
        raise ConfigError(f"defines no function(s) {', '.join(missing)}", file=hidden.traps_file, field="traps")
    return functions


def _reference_outputs(problem: Problem, hidden: Hidden | None, cases: list[Case]) -> list[Expected]:
    """The reference's observations; without `hidden` (examples only) its hidden part is read only
    when reference.py is missing (a one-file problem's reference is in tests.yaml)."""
    if hidden is None and (problem.driver is not None or not (problem.hidden_dir / "reference.py").is_file()):
        hidden = problem_files.load_hidden(problem)   # a driver's reference is called through it (Hidden)
    if hidden is None:
        path = problem.hidden_dir / "reference.py"
        reference = load_function(path, problem.entry_point)
    else:
        path, reference = hidden.reference, hidden.reference_function(problem.entry_point)
    return [expect(case, reference, path) for case in cases]
