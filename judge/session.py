"""The library API: a `Judge` over one problem set, used by the CLI, notebooks, the web page and the service.

A `Judge` holds a `ProblemSet` (what there is to solve), an execution backend
(where submissions run: by default this machine's sandbox, whose fork servers
are separate processes started from scratch, so hidden tests, the reference
and expected values loaded here never reach a submission) and one prepared
problem per problem id, kept while the problem set's files are unchanged.
It may be shared by threads: preparing and judging take no lock held by
another problem's judging.
"""
from __future__ import annotations

import os
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from judge import problem as problems
from judge.cache import ExpectedCache
from judge.contract import Backend
from judge.errors import ConfigError
from judge.prepared import PreparedProblem, prepare, prepare_input
from judge.problem import Problem
from judge.problemset import ProblemSet
from judge.progress import ProgressStore, recording
from judge.progress import home as progress_home
from judge.report import Report, TestResult
from judge.sandbox.backend import SandboxBackend
from judge.sandbox.launch import Launched

MAX_SOURCE_BYTES = 1 << 20


class Judge:
    """Judges submissions against the problems of one problem set."""

    def __init__(self, problems_dir: str | os.PathLike | None = None, *, backend: Backend | None = None,
                 threads: int | None = None, record: bool | None = None, progress: ProgressStore | None = None,
                 cache: ExpectedCache | None = None, launched: Launched | None = None,
                 protect: tuple[Path, ...] = ()):
        # The reference's expected observations, cached on disk per problem version (issue 6).
        self.cache = cache if cache is not None else ExpectedCache.from_env()
        self.problem_set = ProblemSet.find(problems_dir, self.cache)
        self.threads = threads or max(1, min(4, os.cpu_count() or 1))
        # Every judged run is recorded in the progress database (issue 7) unless
        # record=False or JUDGE_NO_RECORD=1; the store is opened per write, so
        # JUDGE_HOME is read when recording, not here.
        self.record = recording() if record is None else record
        self.progress = progress or ProgressStore()
        # More directories to hide from submissions (the judging service's SQLite database).
        self.protect = tuple(Path(p) for p in protect)
        if backend is not None and launched is not None:
            launched.abandon()  # a fork server started for a backend that is not used
        self.backend: Backend = backend or SandboxBackend(self.protected_paths(), launched=launched)
        self._prepared: dict[tuple[str, bool], tuple[tuple, PreparedProblem]] = {}
        self._preparing: dict[tuple[str, bool], threading.Lock] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------ problems
    @property
    def root(self) -> Path:
        return self.problem_set.root

    def problem_ids(self) -> list[str]:
        return self.problem_set.ids()

    def problem(self, problem_id: str) -> Problem:
        return self.problem_set.get(problem_id)

    # ------------------------------------------------------------ judging
    def prepared(self, problem: str | Problem, *, examples_only: bool = False) -> PreparedProblem:
        """`problem` ready to judge: kept per id while the problem set's files are unchanged.

        A long-lived judge (`judge serve`, a service worker) judges the same problem again and
        again; re-reading the hidden tests and redrawing every input would cost more than running
        the submission. A `Problem` object given here (e.g. with raised limits, `judge validate`)
        is prepared afresh and not kept.
        """
        if isinstance(problem, Problem):
            return self._prepare(problem, examples_only)
        key = (problem, examples_only)
        with self._lock:
            lock = self._preparing.setdefault(key, threading.Lock())
        with lock:  # one thread prepares a problem; others wait for it, other problems do not
            stamp = self.problem_set.stamp()
            kept = self._prepared.get(key)
            if kept is None or kept[0] != stamp:
                kept = (stamp, self._prepare(self.problem(problem), examples_only))
                with self._lock:
                    self._prepared = {k: v for k, v in self._prepared.items() if v[0] == stamp}
                    self._prepared[key] = kept
        # Recording follows the judge's settings when asked, not when first prepared.
        return replace(kept[1], progress=self.progress, record=self.record)

    def _prepare(self, problem: Problem, examples_only: bool) -> PreparedProblem:
        # The fork server starts first: it imports (torch: seconds) while the reference runs here.
        self._warm((problem.framework,))
        return prepare(problem, self.backend, cache=self.cache, threads=self.threads, progress=self.progress,
                       record=self.record, examples_only=examples_only)

    def run(self, problem_id: str, submission: str | os.PathLike, *, examples_only: bool = False,
            on_result: Callable[[TestResult], None] | None = None) -> Report:
        """Judge the file `submission` on `problem_id`: examples, hidden tests, checks."""
        path = Path(submission)
        source = read_submission(path)
        prepared = self.prepared(problem_id, examples_only=examples_only)
        return prepared.submit(source, str(submission), origin=str(path.resolve()), graded=path.resolve().parent,
                               on_result=on_result)

    def run_on_input(self, problem_id: str, submission: str | os.PathLike, input_file: str | os.PathLike) -> Report:
        """Judge the file `submission` on one input of the learner's own, against the reference.

        Nothing is recorded and nothing cached: the input is the learner's, not the problem's.
        """
        problem = self.problem(problem_id)
        source = read_submission(Path(submission))
        test = problems.load_input_file(problem, Path(input_file))
        self._warm((problem.framework,))
        prepared = prepare_input(problem, test, self.backend, threads=self.threads)
        return prepared.submit(source, str(submission), graded=Path(submission).resolve().parent)

    # ------------------------------------------------------------ lifecycle
    def warm(self) -> None:
        """Start the fork server for every framework of this problem set now, so that the first
        judged submission costs a fork rather than an import (`judge serve`)."""
        problems_, _ = self.problem_set.load()
        self._warm({p.framework for p in problems_})

    def _warm(self, frameworks) -> None:
        self.backend.warm(tuple(frameworks))

    def protected_paths(self, graded: Path | None = None) -> tuple[Path, ...]:
        """What no submission may read: the whole problem set (hidden tests, known submissions,
        .git) and every pack's, cached expected values, progress records, the directory being graded, and the
        directories given as `protect` (the judging service's SQLite database)."""
        paths = [*(source.root for source in self.problem_set.sources()), self.cache.directory, progress_home(),
                 graded, *self.protect]
        return tuple(dict.fromkeys(Path(p).resolve() for p in paths if p is not None))

    def close(self) -> None:
        self.backend.close()

    def __enter__(self) -> "Judge":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


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
