"""The diagnosis budget: a wrong answer is reported without waiting for its whole diagnosis.

A learner's loop is mostly wrong answers, and the verdict and the failing test are known as soon as the
run is judged. Naming the mistake may take much longer (slip models and repairs of the file run in the
sandbox), so a face that asks for a budget gets its report by a deadline proportional to the run's own
time: the verdict, the failing tests and whatever diagnosis is ready by then (the known mistakes and
relations, found in the judge's process, usually are). The deeper search goes on in a thread of its
own and, when it names more, the report made with it is handed to `on_refined`, which a face shows
where it can (the page streams it; the terminal prints it if it comes while it waits). A report made
so says it is `refining`, and then `on_refined` is called exactly once: with the refined report, or
with None when nothing more was found or the search ran past its own deadline. A report not
`refining` (accepted, a diagnosis complete in time, no wrong value to diagnose) is all there is.

Batch grading and the service ask for no budget: their reports are complete when they are made.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Generic, TypeVar

from judge.base.report import Report

T = TypeVar("T")


class RunCosts:
    """What runs of one prepared problem have cost (from the asking to the end of the sandbox's run), the last
    few kept: the cheapest of them is what an accepted run costs, the yardstick of every later run's budget
    (a file that imports scipy pays for its import, not with a longer wait for its diagnosis)."""

    KEPT = 16

    def __init__(self) -> None:
        self._costs: list[float] = []
        self._lock = threading.Lock()

    def note(self, cost: float) -> float:
        """Keep `cost` and say the cheapest kept, it included."""
        with self._lock:
            self._costs = [*self._costs[-(self.KEPT - 1):], cost]
            return min(self._costs)


@dataclass(frozen=True)
class Budget:
    """When the first report is due and until when a refinement is handed on, as multiples of what an accepted
    run of the problem costs: the time from `started` (the face's asking) to the end of the submission's run
    in the sandbox, which an accepted run pays too (a wrong answer then pays for its failures' messages and
    its diagnosis)."""

    on_refined: Callable[[Report | None], None]
    first: float = 2.5          # the first report is due by this many times the run's cost...
    floor_s: float = 0.05       # ... and leaves the diagnosis at least this long after the verdicts
    last: float | None = 8.0    # a refinement later than this many times the run's cost is not handed on (None: any)
    last_floor_s: float = 2.0   # ... nor, with `last`, sooner than this many seconds from `started`
    started: float = field(default_factory=time.perf_counter)
    costs: RunCosts | None = None   # the problem's runs so far (a prepared problem's): the cheapest is the yardstick

    def cost(self, run_end: float) -> float:
        """What an accepted run of the problem costs, as far as is known, given when this submission's run ended
        (time.perf_counter): this run's cost, or a cheaper one of the problem's seen before (noted once a run)."""
        cost = run_end - self.started
        return self.costs.note(cost) if self.costs is not None else cost

    def first_at(self, cost: float) -> float:
        """When the first report is due, for runs of `cost` (`cost(run_end)`)."""
        return max(self.started + self.first * cost, time.perf_counter() + self.floor_s)

    def last_at(self, cost: float) -> float | None:
        """Until when a refinement is handed on (None: whenever it comes)."""
        if self.last is None:
            return None
        return self.started + max(self.last_floor_s, self.last * cost)


class Diagnosing(Generic[T]):
    """A quick diagnosis, then a deep one, made in a thread of their own: `wait` gives the best ready by the
    first deadline (the deep one, else the quick one, else None); `then` hands on the deep one once it is
    made, if it comes by the budget's last deadline and says more than what was given."""

    def __init__(self, budget: Budget, run_end: float, quick: Callable[[], T], deep: Callable[[], T]):
        self.budget, self.cost = budget, budget.cost(run_end)
        self._quick: T | None = None
        self._deep: T | None = None
        self._quick_done, self._deep_done = threading.Event(), threading.Event()
        self._given: T | None = None
        self._failed: BaseException | None = None

        def work() -> None:
            try:
                self._quick = quick()
                self._quick_done.set()
                self._deep = deep()
            except Exception as exc:  # noqa: BLE001 - kept and raised where the report is made, never lost
                self._failed = exc
            finally:
                self._quick_done.set()
                self._deep_done.set()

        threading.Thread(target=work, name="diagnosis", daemon=True).start()

    def wait(self) -> T | None:
        """The diagnosis to report now: the deep one if it is made by the first deadline, else the quick one
        if it is made, else None (the verdict and the failing tests alone)."""
        deadline = self.budget.first_at(self.cost)
        if self._deep_done.wait(max(0.0, deadline - time.perf_counter())) and self._failed is None:
            self._given = self._deep
            return self._deep
        if self._quick_done.wait(max(0.0, deadline - time.perf_counter())) and self._quick is not None:
            self._given = self._quick
        if self._failed is not None:
            raise self._failed
        return self._given

    @property
    def complete(self) -> bool:
        """Whether what `wait` gave is the whole diagnosis (nothing more will come)."""
        return self._given is not None and self._given is self._deep

    def then(self, deliver: Callable[[T | None], None]) -> None:
        """Once the deep diagnosis is made (in a thread of its own): `deliver(it)`; `deliver(None)` when it
        failed, or at the last deadline when it is not made by then."""
        last = self.budget.last_at(self.cost)

        def hand_on() -> None:
            done = self._deep_done.wait(None if last is None else max(0.0, last - time.perf_counter()))
            deliver(self._deep if done and self._failed is None else None)

        threading.Thread(target=hand_on, name="refinement", daemon=True).start()


WAIT_S = 600.0   # a face waits at most this long for `on_refined` (the judge calls it by the budget's end; a
# budget without one, the page's, when the search ends, which its sandbox runs' own limits bound)


class Refinement:
    """A face's end of a budget: `put` is the `on_refined` it gives the judge; `wait` returns the refined report
    once the judge has called it (None: nothing more was found, or nothing came in time)."""

    def __init__(self) -> None:
        self._came = threading.Event()
        self._report: Report | None = None

    def put(self, report: Report | None) -> None:
        self._report = report
        self._came.set()

    def wait(self, timeout_s: float = WAIT_S) -> Report | None:
        self._came.wait(timeout_s)
        return self._report
