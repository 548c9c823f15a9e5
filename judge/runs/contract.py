"""The run contract: what the judge asks a backend to run, and the facts the backend reports back.

A backend (`Backend`: this machine's sandbox, `judge.sandbox.backend`, or a worker
elsewhere) takes a `Program` (the source, what to call, what it must not read), the
calls (`judge.runs.calls.Call`) and the `Limits`, and returns a `RunResult`: facts per call
and for loading (observations, refusals, deaths, kills) and an `Isolation` report, never
a verdict; `judge.runs.decisions` alone turns facts into verdicts and messages. Every value
here has a plain (JSON-able) form, `to_plain`, and `from_plain` rebuilds it strictly,
raising `wire.WireError` (a ValueError) for anything malformed, never guessing a missing
field: a request or a result from another process is checked, not trusted.
"""
from __future__ import annotations

import enum
import math
import os
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Protocol, Sequence

from judge.base import encoding as wire
from judge.runs.calls import Call, ErrorInfo, Observation

FRAMEWORKS = ("numpy", "torch")


@dataclass(frozen=True)
class Program:
    """What to run: the submission's source, the function to call, and what it must not read.

    `framework` says which library the fork server must have imported; `hidden` are
    directories this run may not read besides those the backend always hides (the
    directory a submission was graded from, so one student's file cannot read another's).
    They travel with each request and hide nothing from any other run.
    """

    source: str
    filename: str
    entry_point: str
    framework: str = "numpy"
    hidden: tuple[str, ...] = ()

    def to_plain(self) -> dict:
        return {"source": self.source, "filename": self.filename, "entry_point": self.entry_point,
                "framework": self.framework, "hidden": list(self.hidden)}

    @classmethod
    def from_plain(cls, plain: Any) -> "Program":
        value = _record(plain, _PROGRAM_FIELDS, "program")
        texts = (value["source"], value["filename"], value["entry_point"], value["framework"])
        if not all(type(t) is str for t in texts) or value["framework"] not in FRAMEWORKS:
            raise wire.WireError("malformed program: source, filename and entry_point are text; "
                                 "framework is numpy or torch")
        hidden = _list(value["hidden"], "program.hidden")
        if not all(type(h) is str and os.path.isabs(h) for h in hidden):
            raise wire.WireError("malformed program: its hidden directories are absolute paths")
        return cls(value["source"], value["filename"], value["entry_point"], value["framework"], tuple(hidden))


# How many times its CPU-time limit a call (or loading) may run by the wall clock: enough for a correct run
# on a machine whose cores are shared with several busy processes, bounded so that waiting ends.
WALL_BACKSTOP = 4.0


@dataclass(frozen=True)
class Limits:
    """Resource limits for one submission's run.

    Time limits count CPU time, as the judge measures it for the run's process (all its threads):
    a busy machine slows a run's clock, not its count. The wall clock is a backstop only, at
    WALL_BACKSTOP times each limit, so a run that waits (sleeps, blocks) still ends.
    """

    time_s: float = 2.0            # CPU time per test call (all of the run's threads together)
    import_time_s: float = 10.0    # CPU time to load the submission file
    memory_mb: int = 1024          # address space the submission may add to the warm process
    output_bytes: int = 1 << 20    # stdout + stderr together
    result_bytes: int = 64 << 20   # one encoded result
    results_total_bytes: int = 256 << 20  # all results of a submission together, as the judge holds them
    file_bytes: int = 16 << 20     # largest file it may write in its scratch directory
    scratch_mb: int = 64           # all files together (a tmpfs of this size, where mounts are possible)
    scratch_files: int = 4096      # files and directories in it together (the tmpfs's inodes)
    tasks: int = 64                # processes and threads of the run together (a pids cgroup or RLIMIT_NPROC)
    open_files: int = 64
    threads: int = 2               # torch / BLAS threads inside the child
    total_time_s: float | None = None  # budget for restarting after kills; default max(10 s, 5 x time_s)

    @property
    def call_wall_s(self) -> float:
        """The wall-clock backstop of one call."""
        return WALL_BACKSTOP * self.time_s

    @property
    def budget_s(self) -> float:
        return self.total_time_s if self.total_time_s is not None else max(10.0, 5 * self.time_s)

    def to_plain(self) -> dict:
        return asdict(self)

    @classmethod
    def from_plain(cls, plain: Any) -> "Limits":
        """Every field present: seconds a finite positive number, sizes and counts a positive integer."""
        value = _record(plain, _LIMITS_FIELDS, "limits")
        seconds = {k: _positive_seconds(value[k], f"limits.{k}") for k in ("time_s", "import_time_s")}
        total = value["total_time_s"]
        counts = {k: _integer(value[k], f"limits.{k}") for k in sorted(_LIMITS_FIELDS - {*seconds, "total_time_s"})}
        if not all(counts.values()):
            raise wire.WireError("malformed limits: every size and count is at least 1")
        return cls(**seconds, **counts,
                   total_time_s=None if total is None else _positive_seconds(total, "limits.total_time_s"))


@dataclass(frozen=True)
class Isolation:
    """Which isolation layers a run had, as the backend applied them.

    `failed` entries read "layer: why"; `exposure` is the backend's one line on what the
    missing layers let a submission do (only the backend knows its layers), set exactly
    when some layer failed.
    """

    active: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()
    exposure: str = ""

    def to_plain(self) -> dict:
        return {"active": list(self.active), "failed": list(self.failed), "exposure": self.exposure}

    @classmethod
    def from_plain(cls, plain: Any) -> "Isolation":
        value = _record(plain, _ISOLATION_FIELDS, "isolation")
        report = cls(active=tuple(_texts(value["active"], "isolation.active")),
                     failed=tuple(_texts(value["failed"], "isolation.failed")),
                     exposure=_text(value["exposure"], "isolation.exposure"))
        if bool(report.failed) != bool(report.exposure):
            raise wire.WireError("malformed isolation: an exposure line exactly when a layer failed")
        return report


class Kill(str, enum.Enum):
    """Why the judge killed a worker."""

    LOAD_TIME = "load_time"            # loading the file used more CPU time than Limits.import_time_s
    CALL_TIME = "call_time"            # a call used more CPU time than Limits.time_s
    LOAD_WALL = "load_wall"            # loading ran WALL_BACKSTOP x import_time_s by the wall clock
    CALL_WALL = "call_wall"            # a call ran WALL_BACKSTOP x time_s by the wall clock (waiting, not computing)
    WALL_CLOCK = "wall_clock"          # the submission's whole time (import_time_s + budget_s) ran out
    OUTPUT_FLOOD = "output_flood"      # stdout and stderr together went over Limits.output_bytes
    RESULTS_TOTAL = "results_total"    # the results kept so far went over Limits.results_total_bytes
    MALFORMED_FRAME = "malformed_frame"  # a frame out of place or not in its schema (`detail` says which)


class Refusal(str, enum.Enum):
    """Why a call's value did not come back."""

    TOO_MANY_ITEMS = "too_many_items"  # the judge refused to decode it: more items than the call's cap
    TOO_LARGE = "too_large"            # the child's harness refused to encode it: over a size limit
    NOT_RETURNABLE = "not_returnable"  # the child's harness could not encode it (its type, depth, keys...)


class LoadKind(str, enum.Enum):
    """What the child said failed while loading the file."""

    COMPILE = "compile"    # it does not compile, or does not define the entry point as a function
    RUNTIME = "runtime"    # running the module raised


@dataclass(frozen=True)
class Death:
    """How a worker ended while a call (or loading) had no result; from the judge's own monitor."""

    kill: Kill | None = None     # None: nobody here killed it (it crashed, exited or was killed by the kernel)
    detail: str = ""             # with Kill.MALFORMED_FRAME: what was wrong with the frame
    exit_code: int | None = None  # set when it exited
    signal: int | None = None    # set when a signal ended it; both None: the monitor gave no status
    peak_memory_kb: int = 0      # peak resident memory over what the worker started with
    cpu_s: float = 0.0           # CPU time the worker used, its start included

    def to_plain(self) -> dict:
        return {"kill": None if self.kill is None else self.kill.value, "detail": self.detail,
                "exit_code": self.exit_code, "signal": self.signal, "peak_memory_kb": self.peak_memory_kb,
                "cpu_s": self.cpu_s}

    @classmethod
    def from_plain(cls, plain: Any) -> "Death":
        value = _record(plain, _DEATH_FIELDS, "death")
        return cls(kill=_member(Kill, value["kill"], "death.kill", optional=True),
                   detail=_text(value["detail"], "death.detail"),
                   exit_code=_integer(value["exit_code"], "death.exit_code", optional=True),
                   signal=_integer(value["signal"], "death.signal", optional=True),
                   peak_memory_kb=_integer(value["peak_memory_kb"], "death.peak_memory_kb"),
                   cpu_s=_seconds(value["cpu_s"], "death.cpu_s"))


@dataclass(frozen=True)
class CallOutcome:
    """One call's facts: its observation, or why there is none. At most one of those is set.

    A value the child's harness refused comes with both: an observation whose error
    (where "return") says why in the learner's words, and the refusal as a fact.
    """

    observation: Observation | None = None
    refusal: Refusal | None = None
    items_allowed: int = 0        # with Refusal.TOO_MANY_ITEMS: the cap the value went over
    death: Death | None = None    # the worker ended during this call
    skipped: bool = False         # never run: earlier calls used up the submission's time budget
    time_ms: float = 0.0          # the judge's clock: from the call's start to its result, or to its kill
    cpu_ms: float = 0.0           # the worker's CPU time over the same span, as the judge read it (0: unknown)
    output: str = ""              # what the submission printed during this call (it flushes before each result)
    out_of_memory: str = ""       # the monitor measured this call's memory at its limit: what it saw (else "")

    def to_plain(self) -> dict:
        return {"observation": None if self.observation is None else self.observation.to_plain(),
                "refusal": None if self.refusal is None else self.refusal.value,
                "items_allowed": self.items_allowed,
                "death": None if self.death is None else self.death.to_plain(),
                "skipped": self.skipped, "time_ms": self.time_ms, "cpu_ms": self.cpu_ms, "output": self.output,
                "out_of_memory": self.out_of_memory}

    @classmethod
    def from_plain(cls, plain: Any) -> "CallOutcome":
        value = _record(plain, _OUTCOME_FIELDS, "call outcome")
        observation, death = value["observation"], value["death"]
        if type(value["skipped"]) is not bool:
            raise wire.WireError("malformed call outcome: skipped")
        outcome = cls(observation=None if observation is None else Observation.from_plain(observation),
                      refusal=_member(Refusal, value["refusal"], "call outcome.refusal", optional=True),
                      items_allowed=_integer(value["items_allowed"], "call outcome.items_allowed"),
                      death=None if death is None else Death.from_plain(death),
                      skipped=value["skipped"], time_ms=_seconds(value["time_ms"], "call outcome.time_ms"),
                      cpu_ms=_seconds(value["cpu_ms"], "call outcome.cpu_ms"),
                      output=_text(value["output"], "call outcome.output"),
                      out_of_memory=_text(value["out_of_memory"], "call outcome.out_of_memory"))
        if not outcome._consistent():
            raise wire.WireError("malformed call outcome: its facts contradict each other")
        return outcome

    def _consistent(self) -> bool:
        """At most one of observation, judge's refusal, death and skip; a child's refusal only with its error."""
        undecoded = self.refusal is Refusal.TOO_MANY_ITEMS
        if sum((self.observation is not None, undecoded, self.death is not None, self.skipped)) > 1:
            return False
        if self.refusal is None or undecoded:
            return True
        error = self.observation.error if self.observation is not None else None
        return error is not None and error.where == "return"


@dataclass(frozen=True)
class LoadError:
    """The file did not load: the error the child reported, or how the worker died while loading."""

    kind: LoadKind | None = None   # with `error`: what the child said failed
    error: ErrorInfo | None = None
    death: Death | None = None     # set instead of kind and error when the worker died or was killed

    def to_plain(self) -> dict:
        return {"kind": None if self.kind is None else self.kind.value,
                "error": None if self.error is None else self.error.to_plain(),
                "death": None if self.death is None else self.death.to_plain()}

    @classmethod
    def from_plain(cls, plain: Any) -> "LoadError":
        value = _record(plain, _LOAD_FIELDS, "load error")
        kind = _member(LoadKind, value["kind"], "load error.kind", optional=True)
        error = None if value["error"] is None else ErrorInfo.from_plain(value["error"])
        death = None if value["death"] is None else Death.from_plain(value["death"])
        if (kind is None) != (error is None) or (error is None) == (death is None):
            raise wire.WireError("malformed load error: either a kind and an error, or a death")
        return cls(kind=kind, error=error, death=death)


@dataclass
class RunResult:
    """Everything one submission's run reports; `outcomes[i]` is call i's (meaningless when the file did not load)."""

    outcomes: list[CallOutcome]
    load_error: LoadError | None = None
    output: str = ""
    output_bytes: int = 0
    workers: int = 0
    isolation: Isolation = field(default_factory=Isolation)
    held_bytes: int = 0        # decoded results kept for grading, charged as bytes + a per-node overhead
    node_limits: list[int] = field(default_factory=list)
    # What the child said, while it ran, of the submission reaching into the judge's or the interpreter's
    # internals (a trace function left set, a torch mode left entered, the judge's functions rebound): a
    # claim, shown with the report's tampering list, never a verdict.
    tampering: list[str] = field(default_factory=list)

    def to_plain(self) -> dict:
        return {"outcomes": [o.to_plain() for o in self.outcomes],
                "load_error": None if self.load_error is None else self.load_error.to_plain(),
                "output": self.output, "output_bytes": self.output_bytes, "workers": self.workers,
                "isolation": self.isolation.to_plain(),
                "held_bytes": self.held_bytes, "node_limits": list(self.node_limits),
                "tampering": list(self.tampering)}

    @classmethod
    def from_plain(cls, plain: Any) -> "RunResult":
        value = _record(plain, _RUN_FIELDS, "run result")
        outcomes, load_error = value["outcomes"], value["load_error"]
        if type(outcomes) is not list:
            raise wire.WireError("malformed run result: outcomes is a list")
        return cls(outcomes=[CallOutcome.from_plain(o) for o in outcomes],
                   load_error=None if load_error is None else LoadError.from_plain(load_error),
                   output=_text(value["output"], "run result.output"),
                   output_bytes=_integer(value["output_bytes"], "run result.output_bytes"),
                   workers=_integer(value["workers"], "run result.workers"),
                   isolation=Isolation.from_plain(value["isolation"]),
                   held_bytes=_integer(value["held_bytes"], "run result.held_bytes"),
                   node_limits=[_integer(n, "run result.node_limits") for n in _list(value["node_limits"],
                                                                                      "run result.node_limits")],
                   tampering=_texts(value["tampering"], "run result.tampering"))


class Backend(Protocol):
    """Runs a program's calls under limits and reports what happened.

    `on_progress(result, n)` says the first n outcomes are final (a backend that cannot
    stream calls it once, at the end); `node_limits[i]` caps the items call i's result
    may have before it is refused undecoded. Each outcome's `time_ms` is how long its call
    ran as the backend measured it, whatever became of the call: a test takes as long as its
    slowest call, a call stopped at its time limit included. `warm` gets ready for programs
    of these frameworks (a backend with nothing to start does nothing); after `close` the
    next run starts afresh.
    """

    def run(self, program: Program, calls: Sequence[Call], limits: Limits, *,
            on_progress: Callable[[RunResult, int], None] | None = None,
            node_limits: Sequence[int] | None = None) -> RunResult: ...

    def warm(self, frameworks: Sequence[str]) -> None: ...

    def close(self) -> None: ...


_DEATH_FIELDS = frozenset({"kill", "detail", "exit_code", "signal", "peak_memory_kb", "cpu_s"})
_OUTCOME_FIELDS = frozenset({"observation", "refusal", "items_allowed", "death", "skipped", "time_ms", "cpu_ms",
                             "output", "out_of_memory"})
_LOAD_FIELDS = frozenset({"kind", "error", "death"})
_RUN_FIELDS = frozenset({"outcomes", "load_error", "output", "output_bytes", "workers", "isolation",
                         "held_bytes", "node_limits", "tampering"})
_PROGRAM_FIELDS = frozenset({"source", "filename", "entry_point", "framework", "hidden"})
_LIMITS_FIELDS = frozenset(Limits.__dataclass_fields__)
_ISOLATION_FIELDS = frozenset({"active", "failed", "exposure"})


def _record(plain: Any, fields: frozenset[str], what: str) -> dict:
    if type(plain) is not dict or set(plain) != fields:
        raise wire.WireError(f"malformed {what}: expected exactly the fields {sorted(fields)}")
    return plain


def _member(kind: type[enum.Enum], value: Any, what: str, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if type(value) is not str or value not in kind._value2member_map_:
        raise wire.WireError(f"malformed {what}: expected one of {sorted(kind._value2member_map_)}")
    return kind(value)


def _integer(value: Any, what: str, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if type(value) is not int or value < 0:
        raise wire.WireError(f"malformed {what}: expected a non-negative integer")
    return value


def _seconds(value: Any, what: str) -> float:
    if type(value) not in (int, float) or not (0 <= value and math.isfinite(value)):
        raise wire.WireError(f"malformed {what}: expected a finite non-negative number")
    return float(value)


def _positive_seconds(value: Any, what: str) -> float:
    if type(value) not in (int, float) or not (0 < value and math.isfinite(value)):
        raise wire.WireError(f"malformed {what}: expected a finite positive number")
    return value


def _text(value: Any, what: str) -> str:
    if type(value) is not str:
        raise wire.WireError(f"malformed {what}: expected a string")
    return value


def _list(value: Any, what: str) -> list:
    if type(value) is not list:
        raise wire.WireError(f"malformed {what}: expected a list")
    return value


def _texts(value: Any, what: str) -> list[str]:
    return [_text(v, what) for v in _list(value, what)]
