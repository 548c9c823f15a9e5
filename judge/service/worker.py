"""Judging one submission by id: claim it, judge it with a warm `Judge`, store the report once.

A `Processor` is what every worker holds, whichever queue feeds it (a
Dramatiq worker process or the in-process pool): one `Judge`, whose fork
server is the warm sandbox, and each problem prepared once (`Judge.prepared`). The
sandbox enforces every time limit; the queue only delivers ids, at least once.
"""
from __future__ import annotations

import logging
import os
import socket
from dataclasses import dataclass, field

from judge.runs import decisions as verdicts
from judge.base.errors import ConfigError
from judge.base.report import Report, TestResult
from judge.service.config import ServiceConfig
from judge.service.regrade import problem_version
from judge.service.storage import Store
from judge.base.submission import Submission

log = logging.getLogger("judge.service.worker")

JUDGED, SKIPPED, DUPLICATE = "judged", "skipped", "duplicate"


@dataclass
class Processor:
    """One warm judge serving submissions to whichever threads call `process`."""

    config: ServiceConfig
    store: Store
    judge: object                      # judge.judging.session.Judge (imported by the caller: it brings numpy)
    name: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}")
    _versions: dict[str, tuple[tuple, str | None]] = field(default_factory=dict, repr=False)

    def warm(self) -> None:
        """Prepare every problem now, torch problems first (the torch fork server starts at once), and
        run each problem's traps on its cases, which the first wrong answers would otherwise wait for."""
        problems, broken = self.judge.problem_set.load()
        for b in broken:  # a broken problem fails its own submissions, not the worker
            log.warning("problem %s is not served: %s", b.id, b.error)
        for problem in sorted(problems, key=lambda p: p.framework != "torch"):
            try:
                prepared = self.judge.prepared(problem.id)
                prepared.run_traps_ahead()  # quiet, without catch_warnings: the threads judging share its state
            except ConfigError as exc:
                log.warning("problem %s is not served: %s", problem.id, exc)

    def process(self, submission_id: str) -> str:
        """Judge the fairest waiting submission: judged, skipped (nothing to claim) or duplicate.

        A delivered id is a turn to judge, not an order: `Store.claim_next` picks whose turn it is
        (there is one message per queued submission, so every one is judged). `submission_id`
        only names the message, for the logs.
        """
        submission = self.store.claim_next(self.name, self.config.lease_s)
        if submission is None:
            return SKIPPED
        label = f"{submission.id}.py"
        version = self.version(submission.problem)     # the files it is about to be judged on
        if submission.attempts > self.config.max_attempts:
            report = judge_error(submission.problem, label,
                                 f"judging was started {submission.attempts - 1} times and never finished")
        else:
            try:
                report = self.judge.submit(submission.problem, Submission.from_text(submission.source, label),
                                           record=False)
            except ConfigError as exc:  # the problem itself is broken or gone
                report = judge_error(submission.problem, label, str(exc))
            # A SandboxError or OSError (the fork server is gone) propagates: the backend starts a fresh
            # server for the next submission; this one stays "running" until its lease ends, then the
            # reaper sends it again.
        if self.store.finish(submission.id, report.to_json(), version):
            return JUDGED
        log.info("submission %s was already judged; this judging is dropped", submission.id)
        return DUPLICATE

    def version(self, problem_id: str) -> str | None:
        """The version of the problem's files (judge.service.regrade) judged on now, kept while the
        problem set's files are unchanged (their stamp); None for a problem that does not load."""
        stamp = self.judge.problem_set.stamp()
        kept = self._versions.get(problem_id)
        if kept is None or kept[0] != stamp:
            try:
                kept = (stamp, problem_version(self.judge.problem(problem_id)))
            except ConfigError:
                kept = (stamp, None)
            self._versions[problem_id] = kept
        return kept[1]

    def close(self) -> None:
        self.judge.close()


def judge_error(problem: str, label: str, message: str) -> Report:
    decision = verdicts.judge_failed(message)
    return Report(problem=problem, submission=label,
                  tests=[TestResult(name="judge", group="check", verdict=decision.verdict, message=decision.message)])


def new_processor(config: ServiceConfig) -> Processor:
    """A processor with its own judge and database connection, warmed up."""
    from judge.judging.session import Judge

    store = Store(config.database_url)
    judge = Judge(config.problems_dir, record=False, protect=store.files(), threads=config.sandbox_threads,
                  ahead=True)
    processor = Processor(config, store, judge)
    processor.warm()
    return processor
