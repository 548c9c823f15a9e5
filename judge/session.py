"""The library API: a `Judge` over one problem set, used by the CLI and notebooks.

The sandbox's fork server is a separate process started from scratch, so no
submission process shares memory with the judge: hidden tests, the reference
and expected values loaded here never reach it. `Judge.run` starts the server
first so that its imports overlap the judge's own work.
"""
from __future__ import annotations

import functools
import importlib
import os
import sys
from pathlib import Path
from typing import Any, Callable

from judge import problem as problems
from judge.cache import ExpectedCache
from judge.cases import Case, build_case
from judge.errors import ConfigError
from judge.execute import run_call
from judge.grading import Expected, TrapSet, expect, grade
from judge.problem import Hidden, Problem
from judge.progress import ProgressStore, ProgressUnavailable, recording
from judge.progress import home as progress_home
from judge.report import Report, TestResult
from judge.sandbox import Limits, Sandbox
from judge.sandbox.launch import Launched
from judge.sandbox.limits import DISABLE_ENV
from judge.solution import load_function, load_module

MAX_SOURCE_BYTES = 1 << 20


class Judge:
    """Judges submissions against the problems of one problem set."""

    def __init__(self, problems_dir: str | os.PathLike | None = None, *, threads: int | None = None,
                 record: bool | None = None, progress: ProgressStore | None = None,
                 cache: ExpectedCache | None = None, launched: Launched | None = None,
                 protect: tuple[Path, ...] = ()):
        self.root = problems.find_root(problems_dir)
        self.threads = threads or max(1, min(4, os.cpu_count() or 1))
        # Every judged run is recorded in the progress database (issue 7) unless
        # record=False or JUDGE_NO_RECORD=1; the store is opened per write, so
        # JUDGE_HOME is read when recording, not here.
        self.record = recording() if record is None else record
        self.progress = progress or ProgressStore()
        # The reference's expected observations, cached on disk per problem version (issue 6).
        self.cache = cache if cache is not None else ExpectedCache.from_env()
        self._sandbox: Sandbox | None = None
        self._prepared_cache: dict[tuple[str, bool], tuple[tuple, tuple]] = {}
        # A fork server started before this object existed (the CLI does so to overlap imports).
        self._launched = launched
        # More directories to hide from submissions (the judging service's SQLite database).
        self.protect = tuple(Path(p) for p in protect)

    # ------------------------------------------------------------ problems
    def problem_ids(self) -> list[str]:
        return problems.problem_ids(self.root)

    def problem(self, problem_id: str) -> Problem:
        return problems.load_problem(self.root, problem_id)

    def problems(self) -> list[Problem]:
        return [self.problem(pid) for pid in self.problem_ids()]

    # ------------------------------------------------------------ judging
    def run(self, problem_id: str, submission: str | os.PathLike, *, examples_only: bool = False) -> Report:
        """Judge the file `submission` on `problem_id`: examples, hidden tests, checks."""
        problem = self.problem(problem_id)
        source = read_submission(Path(submission))
        return self.run_source(problem, source, str(submission), examples_only=examples_only,
                               origin=str(Path(submission).resolve()), graded=Path(submission).resolve().parent)

    def run_source(self, problem: Problem, source: str, label: str, *, examples_only: bool = False,
                   origin: str | None = None, record: bool | None = None,
                   on_result: Callable[[TestResult], None] | None = None, graded: Path | None = None) -> Report:
        """Judge `source`; `origin` is what the progress database records (default: `label`).

        `record` overrides the judge's own setting for this run (None: the judge's).
        `on_result` is called with each test's result, in order, as soon as it is decided.
        `graded` is the directory the source came from (no child may read it).
        """
        self._start_sandbox(problem.framework, graded)
        cases, expected, traps = self._prepared(problem, examples_only)
        limits = Limits(time_s=problem.limits.time_s, memory_mb=problem.limits.memory_mb, threads=self.threads)
        report = grade(problem, cases, expected, source, Path(label).name, label, self._sandbox, limits, traps,
                       on_result=on_result)
        if self.record if record is None else record:
            self.record_attempt(problem, report, source, origin or label, examples_only=examples_only)
        return report

    def record_attempt(self, problem: Problem, report: Report, source: str, submission: str, *,
                       examples_only: bool = False) -> str | None:
        """Add a judged run to the progress database (a starter is no attempt).

        A failure is the report's warning; it is also returned (None: recorded, or nothing to record).
        """
        if report.not_attempted:
            return None
        try:
            self.progress.record(problem=problem.id, verdict=report.verdict.value, passed=report.passed,
                                 total=report.total, examples_only=examples_only, source=source,
                                 submission=submission, time_ms=report.time_ms)
        except ProgressUnavailable as exc:
            report.warnings.append(str(exc))
            return str(exc)
        return None

    def run_on_input(self, problem_id: str, submission: str | os.PathLike, input_file: str | os.PathLike) -> Report:
        """Judge the file `submission` on one input of the learner's own, against the reference.

        Nothing is recorded and nothing cached: the input is the learner's, not the problem's.
        """
        problem = self.problem(problem_id)
        source = read_submission(Path(submission))
        test = problems.load_input_file(problem, Path(input_file))
        self._start_sandbox(problem.framework, Path(submission).resolve().parent)
        hidden = problems.load_hidden(problem)
        case = build_case(problem, test, hidden.tolerance)
        expected = _reference_outputs(problem, hidden.reference, [case])
        traps = (TrapSet(hidden.traps, functools.partial(_trap_functions, problem, hidden))
                 if hidden.traps and hidden.traps_file is not None else None)
        limits = Limits(time_s=problem.limits.time_s, memory_mb=problem.limits.memory_mb, threads=self.threads)
        return grade(problem, [case], expected, source, Path(submission).name, str(submission), self._sandbox,
                     limits, traps)

    def grader(self, problem: Problem, graded: Path | None = None) -> Callable[[str, str], Report]:
        """A function judging (source, label) on `problem`, prepared once (batch grading, issue 6).

        `graded` is the directory the sources come from: no child may read it (one
        student's submission reading another's).

        Same order as `run_source`: the fork server (a separate process) starts
        first, so it imports while we load. The function may be called from several threads at once
        (`Sandbox.run` locks its spawn); it records no progress.
        """
        self._start_sandbox(problem.framework, graded)
        if problem.framework == "torch":
            # Imported here, once, while the fork server starts: a batch diagnoses wrong answers from
            # several threads, and a thread seeing a half-imported torch in sys.modules fails.
            importlib.import_module("torch")
        hidden = problems.load_hidden(problem)
        cases, expected, traps = self.prepare(problem, hidden)
        limits = Limits(time_s=problem.limits.time_s, memory_mb=problem.limits.memory_mb, threads=self.threads)

        def judge_source(source: str, label: str) -> Report:
            return grade(problem, cases, expected, source, Path(label).name, label, self._sandbox, limits, traps)

        return judge_source

    def prepare(self, problem: Problem, hidden: Hidden | None, *, examples_only: bool = False
                ) -> tuple[list[Case], list[Expected], TrapSet | None]:
        """Cases, the reference's observations on them, and the trap functions."""
        reference_path = (hidden.reference if hidden else problem.hidden_dir / "reference.py")
        tests = list(problem.examples) + (list(hidden.tests) if hidden and not examples_only else [])
        cases = [build_case(problem, test, hidden.tolerance if hidden else None) for test in tests]
        expected = self.cache.expected(problem, hidden, cases, lambda: _reference_outputs(problem, reference_path, cases))
        traps = None
        if hidden is not None and hidden.traps and hidden.traps_file is not None:
            traps = TrapSet(hidden.traps, functools.partial(_trap_functions, problem, hidden))
        return cases, expected, traps

    def _prepared(self, problem: Problem, examples_only: bool) -> tuple[list[Case], list[Expected], TrapSet | None]:
        """`prepare`'s result, kept while the problem set's files are unchanged.

        A long-lived judge (`judge serve`) judges the same problem again and again; re-reading the
        hidden tests and redrawing every input would cost more than running the submission.
        """
        stamp = _files_stamp(self.root)
        key = (problem.id, examples_only)
        kept = self._prepared_cache.get(key)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        # Loaded for --examples too: examples are compared with the hidden file's tolerance either way.
        hidden = problems.load_hidden(problem)
        prepared = self.prepare(problem, hidden, examples_only=examples_only)
        self._prepared_cache = {k: v for k, v in self._prepared_cache.items() if v[0] == stamp}
        self._prepared_cache[key] = (stamp, prepared)
        return prepared

    def example_outputs(self, problem: Problem) -> list[tuple[Case, Expected]]:
        """The public examples with the reference's outputs (for `judge show`).

        Through the cache: a hit spares importing the reference (and, for torch problems, torch).
        """
        cases, expected, _ = self.prepare(problem, None)
        return list(zip(cases, expected))

    # ------------------------------------------------------------ lifecycle
    def warm(self) -> None:
        """Start the fork server for every framework of this problem set now, so that the first
        judged submission costs a fork rather than an import (`judge serve`)."""
        frameworks = {p.framework for p in self.problems()}
        # One server preloading torch serves numpy problems too (it imports numpy as well).
        self._start_sandbox("torch" if "torch" in frameworks else "numpy")

    def protected_paths(self, graded: Path | None = None) -> tuple[Path, ...]:
        """What no submission may read: the whole problem set (hidden tests, known submissions,
        .git), cached expected values, progress records, the directory being graded, and the
        directories given as `protect` (the judging service's SQLite database)."""
        paths = [self.root, self.cache.directory, progress_home(), graded, *self.protect]
        return tuple(dict.fromkeys(Path(p).resolve() for p in paths if p is not None))

    def _start_sandbox(self, framework: str, graded: Path | None = None) -> None:
        """Start (or widen) the fork server; it is a separate process that shares no memory with us."""
        # judge.experiments runs training inside the child: imported once in the server, not per child.
        preload = ("numpy", "torch", "judge.experiments") if framework == "torch" else ("numpy",)
        protect = self.protected_paths(graded)
        if self._sandbox is not None and set(preload) <= set(self._sandbox.preload):
            self._sandbox.protect_also(protect)  # a new graded directory needs no restart
            return
        if self._sandbox is not None:  # a torch problem after numpy ones: restart with torch preloaded
            preload = tuple(dict.fromkeys(self._sandbox.preload + preload))
            protect = tuple(dict.fromkeys(self._sandbox.protect + protect))
            self._sandbox.close()
        disable: tuple[str, ...] = ()
        if os.environ.get(DISABLE_ENV):  # the isolation module is only needed to check the names
            from judge.sandbox.isolation import disabled_from_env

            try:
                disable = disabled_from_env()
            except ValueError as exc:
                raise ConfigError(str(exc)) from None
        self._sandbox = Sandbox(protect=protect, disable=disable, preload=preload, launched=self._launched).start()
        self._launched = None

    def close(self) -> None:
        if self._launched is not None:
            self._launched.abandon()
            self._launched = None
        if self._sandbox is not None:
            self._sandbox.close()
            self._sandbox = None

    def __enter__(self) -> "Judge":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _files_stamp(root: Path) -> tuple:
    """Names, sizes and times of the problem set's problem and hidden-test files: any edit changes it.

    The whole set, not one problem's files: inputs may be made by another problem's reference.
    """
    entries = []
    for top in ("problems", "hidden_tests"):
        for directory, _, files in os.walk(root / top):
            for name in files:
                try:
                    info = os.stat(os.path.join(directory, name))
                except OSError:
                    continue  # removed while we looked: the next stamp differs anyway
                entries.append((directory, name, info.st_size, info.st_mtime_ns))
    return tuple(sorted(entries))


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


def read_submission(path: Path) -> str:
    if not path.exists():
        raise ConfigError("submission file not found", file=path)
    if path.is_dir():
        raise ConfigError("is a directory; expected a Python file defining the entry point", file=path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read the submission: {exc.strerror}", file=path) from None
    if len(data) > MAX_SOURCE_BYTES:
        raise ConfigError(f"the submission is {len(data)} bytes; the limit is {MAX_SOURCE_BYTES}", file=path)
    return decode_source(data, path)


def decode_source(data: bytes, path: Path) -> str:
    """Source bytes as Python reads them: UTF-8 unless a PEP 263 coding line says otherwise.

    `judge run` and `judge grade` both load files through here, so a file is text for one exactly
    when it is for the other.
    """
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:  # undecodable first lines, or an unknown codec in the coding line
        if "unknown encoding" in str(exc):
            raise ConfigError(f"cannot be decoded: {exc}", file=path) from None
        encoding = "utf-8"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not {encoding} text (byte {exc.start}): save it as UTF-8 (or declare its encoding "
                          f"in a `# -*- coding: ... -*-` line)", file=path) from None
    return text[1:] if text.startswith("\ufeff") else text  # a UTF-8 byte-order mark is not code
