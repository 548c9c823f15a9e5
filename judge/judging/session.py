"""The library API: a `Judge` over one problem set, used by the CLI, notebooks, the web page and the service.

A `Judge` holds a `ProblemSet` (what there is to solve), a `Tutor` (the
learner's side: status, hints, solutions, quiz answers, history, and the rule
for what is recorded), an execution backend
(where submissions run: by default this machine's sandbox, whose fork servers
are separate processes started from scratch, so hidden tests, the reference
and expected values loaded here never reach a submission) and one prepared
problem per problem id, kept while the problem set's files are unchanged.
It may be shared by threads: preparing and judging take no lock held by
another problem's judging.

Every face judges through `Judge.submit` with a `Submission` (a file or a
text, decoded once); the judge records the run through its tutor.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Callable

from judge.model import problem as problems
from judge.runs import decisions as verdicts
from judge.model.cache import ExpectedCache
from judge.runs.contract import Backend
from judge.base.errors import ConfigError, NotSourceText
from judge.judging.budget import Budget
from judge.judging.prepared import PreparedProblem, prepare, prepare_input
from judge.judging.prepared import examples as prepared_examples
from judge.model.problem import Problem
from judge.model.problemset import Example, ProblemSet
from judge.learner.progress import ProgressStore
from judge.learner.progress import home as progress_home
from judge.base.report import Report, TestResult
from judge.sandbox.backend import SandboxBackend
from judge.sandbox.launch import Launched
from judge.base.submission import Submission
from judge.learner.tutor import Tutor


class Judge:
    """Judges submissions against the problems of one problem set."""

    def __init__(self, problems_dir: str | os.PathLike | None = None, *, backend: Backend | None = None,
                 threads: int | None = None, record: bool | None = None, progress: ProgressStore | None = None,
                 cache: ExpectedCache | None = None, launched: Launched | None = None,
                 protect: tuple[Path, ...] = (), ahead: bool = False):
        # The reference's expected observations, cached on disk per problem version.
        self.cache = cache if cache is not None else ExpectedCache.from_env()
        self.problem_set = ProblemSet.find(problems_dir, self.cache)
        self.threads = threads or max(1, min(4, os.cpu_count() or 1))
        # Every judged run of the learner's is recorded in the progress database unless
        # record=False or JUDGE_NO_RECORD=1; the store is opened per write, so JUDGE_HOME is read
        # when recording, not here.
        self.tutor = Tutor(self.problem_set, progress, record=record)
        # More directories to hide from submissions (the judging service's SQLite database).
        self.protect = tuple(Path(p) for p in protect)
        if backend is not None and launched is not None:
            launched.abandon()  # a fork server started for a backend that is not used
        # A judge that lives for many submissions (`ahead`: judge serve, a batch, the service) keeps
        # a run ready for the next one like the last (see judge.sandbox.runner).
        self.backend: Backend = backend or SandboxBackend(self.protected_paths(), launched=launched, ahead=ahead)
        self.ahead = ahead
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

    def examples(self, problem: Problem) -> list[Example]:
        """The public examples with the reference's outputs (`judge show`, the problem page), through the cache."""
        return prepared_examples(problem, self.cache)

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
                if self.ahead and kept[1].traps is not None:
                    # What a wrong answer's diagnosis reads first depends on the problem only: the traps'
                    # outputs, read from the disk while the learner writes (a second for a large problem).
                    threading.Thread(target=kept[1].traps.recall, name=f"traps-{problem}", daemon=True).start()
        return kept[1]

    def _prepare(self, problem: Problem, examples_only: bool) -> PreparedProblem:
        # The fork server starts first: it imports (torch: seconds) while the reference runs here.
        self._warm((problem.framework,))
        return prepare(problem, self.backend, cache=self.cache, threads=self.threads, examples_only=examples_only)

    @property
    def record(self) -> bool:
        """Whether judged runs (and hints, answers) are recorded: the tutor's rule."""
        return self.tutor.record

    @record.setter
    def record(self, value: bool) -> None:
        self.tutor.record = value

    @property
    def progress(self) -> ProgressStore:
        """The learner's progress database (the tutor's)."""
        return self.tutor.store

    @progress.setter
    def progress(self, store: ProgressStore) -> None:
        self.tutor.store = store

    def submit(self, problem: str | Problem | PreparedProblem, submission: Submission, *,
               examples_only: bool = False, record: bool | None = None,
               on_result: Callable[[TestResult], None] | None = None,
               on_refined: Callable[[Report | None], None] | None = None, budget: Budget | None = None) -> Report:
        """Judge `submission` on `problem` and record the run as the learner's attempt (see `Tutor`).

        The one way every face judges. `problem` is an id (prepared once per version), a `Problem`
        (e.g. with raised limits: prepared afresh) or an already prepared problem (`judge grade`
        judges many files on one). `record=False` keeps this run out of the learner's history (the
        warm server records after its client has the report); `on_result` gets each test's result
        as soon as it is decided. With `on_refined`, a wrong answer is reported without waiting for its
        whole diagnosis (judge.judging.budget: `budget`, or the default one); when the report says it is
        `refining`, `on_refined` is called once, from another thread, with the refined report or None.
        The first report is what is recorded.
        """
        if on_refined is not None and budget is None:
            budget = Budget(on_refined)   # counted from now: preparing the problem is part of any run's cost
        prepared = problem if isinstance(problem, PreparedProblem) else \
            self.prepared(problem, examples_only=examples_only)
        report = prepared.judge(submission, on_result=on_result, budget=budget)
        if self.record if record is None else record:
            self.tutor.record_run(prepared.problem.id, report, submission, examples_only=prepared.examples_only)
        return report

    def run(self, problem_id: str, submission: str | os.PathLike, *, examples_only: bool = False,
            on_result: Callable[[TestResult], None] | None = None,
            on_refined: Callable[[Report | None], None] | None = None) -> Report:
        """Judge the file `submission` on `problem_id`: examples, hidden tests, checks (`on_refined`: as `submit`)."""
        try:
            code = Submission.from_file(submission)
        except NotSourceText as exc:  # a compile error, as `judge grade` says of it (no source to record)
            prepared = self.prepared(problem_id, examples_only=examples_only)
            return prepared.unjudged(str(submission), verdicts.of_unloadable(exc.detail), on_result=on_result)
        return self.submit(problem_id, code, examples_only=examples_only, on_result=on_result, on_refined=on_refined)

    def run_on_input(self, problem_id: str, submission: str | os.PathLike, input_file: str | os.PathLike) -> Report:
        """Judge the file `submission` on one input of the learner's own, against the reference.

        Nothing is recorded and nothing cached: the input is the learner's, not the problem's.
        """
        problem = self.problem(problem_id)
        code = Submission.from_file(submission)
        test = problems.load_input_file(problem, Path(input_file))
        self._warm((problem.framework,))
        return self.submit(prepare_input(problem, test, self.backend, threads=self.threads), code, record=False)

    # ------------------------------------------------------------ lifecycle
    def warm(self) -> None:
        """Start the fork server for every framework of this problem set now, so that the first
        judged submission costs a fork rather than an import (`judge serve`)."""
        problems_, _ = self.problem_set.load()
        self._warm({p.framework for p in problems_})

    def prepare_all(self, problem_ids: list[str] | None = None,
                    on_problem: Callable[[str, float, ConfigError | None], None] | None = None) -> None:
        """Prepare problems now (every problem by default), torch problems first: their cases and
        expected values, computed once and cached on disk, so that a first run costs what a later
        one does (`judge prepare`, `judge serve` in the background). `on_problem(id, seconds,
        error)` hears of each; a broken problem is its own error, never a stop of the others."""
        import time

        ids = problem_ids if problem_ids is not None else self.problem_ids()
        torch_first = []
        for pid in ids:
            try:
                torch_first.append((self.problem(pid).framework != "torch", pid))
            except ConfigError:
                torch_first.append((True, pid))
        for _, pid in sorted(torch_first):
            started = time.perf_counter()
            try:
                self.prepared(pid)
                error = None
            except ConfigError as exc:
                error = exc
            if on_problem is not None:
                on_problem(pid, time.perf_counter() - started, error)

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
