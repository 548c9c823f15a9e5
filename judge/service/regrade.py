"""Judging stored submissions again when a problem changes: its version, the stale ones, what flipped.

A problem's version is a SHA-256 over the files that define it (its public
YAML, every file of hidden_tests/<id>/, and the reference and traps wherever
tests.yaml points: judge.model.cache.problem_files), so a changed test, tolerance,
reference or trap gives a new one. Every worker stores the version it judged a
submission on. `judge service regrade PROBLEM` sends the judged submissions
whose version is not the current one (or all of them) back to the queue:
they are judged after every fresh submission, taking turns between learners
(judge.service.storage), each one's previous result is kept, and the gradebook
uses a new result as soon as it is stored. `flips` then lists whose verdict or
tests passed changed.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Callable

from judge.base.errors import ConfigError
from judge.model.problem import Problem
from judge.service.queue import Queue
from judge.service.storage import Flip, Store


def problem_version(problem: Problem) -> str:
    """The hex SHA-256 of the files that define `problem` (what a regrade compares)."""
    from judge.model.cache import problem_files
    from judge.model.problem import load_hidden

    try:
        hidden = load_hidden(problem)
    except ConfigError:
        hidden = None       # a broken hidden file is a version too: its bytes are hashed below
    digest = hashlib.sha256()
    for label, path in problem_files(problem, hidden):
        try:
            data = path.read_bytes()
        except OSError as exc:
            data = f"unreadable: {exc.errno}".encode()
        digest.update(f"{label}\0{len(data)}\0".encode() + data)
    return digest.hexdigest()


@dataclass(frozen=True)
class Regrade:
    """What `start` sent: the problem, its current version and the submissions' ids."""

    problem: str
    version: str
    ids: tuple[str, ...]
    enqueued: int          # messages handed to the queue (the reaper sends the rest)


def start(store: Store, queue: Queue | None, problem: Problem, *, course: str | None = None,
          everything: bool = False) -> Regrade:
    """Send the stale (or, `everything`, all) judged submissions to `problem` to be judged again.

    Without a queue here (the service's in-process pool runs in `judge service` itself), the
    service's reaper finds them queued and sends them once they have waited its requeue time.
    """
    version = problem_version(problem)
    ids = store.regrade(problem.id, version, course=course, everything=everything)
    enqueued = sum(queue.enqueue(i) for i in ids) if queue is not None else 0
    return Regrade(problem.id, version, tuple(ids), enqueued)


@dataclass(frozen=True)
class Progress:
    asked_at: float | None
    sent: int
    done: int
    flips: tuple[Flip, ...]

    @property
    def finished(self) -> bool:
        return self.done >= self.sent


def progress(store: Store, problem: str, course: str | None = None) -> Progress:
    asked_at, sent, done, flips = store.flips(problem, course)
    return Progress(asked_at, sent, done, tuple(flips))


def wait(store: Store, problem: str, course: str | None, timeout_s: float,
         on_progress: Callable[[Progress], None] | None = None, poll_s: float = 1.0) -> Progress:
    """Poll until every submission of the latest regrade is judged again, or `timeout_s` passes."""
    deadline = time.monotonic() + timeout_s
    while True:
        state = progress(store, problem, course)
        if on_progress is not None:
            on_progress(state)
        if state.finished or time.monotonic() >= deadline:
            return state
        time.sleep(poll_s)
