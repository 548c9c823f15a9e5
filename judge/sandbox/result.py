"""What a sandboxed run reports: facts per call and for loading, as plain data; never a verdict.

The runner records what it saw (a call's observation, a result it refused, a
worker it killed and why, how the worker ended, its peak memory and CPU time);
`judge.verdicts` alone turns these facts into verdicts and messages. Every
field is an enum with string values, a number, a string or an observation, so
a `RunResult` can cross a process boundary: `to_plain` gives wire-plain data
(`judge.wire.encode` carries it) and `from_plain` rebuilds it strictly, raising
`wire.WireError` for anything malformed, never guessing a missing fact.
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from typing import Any

from judge import wire
from judge.execute import ErrorInfo, Observation


class Kill(str, enum.Enum):
    """Why the judge killed a worker."""

    LOAD_TIME = "load_time"            # loading the file ran past Limits.import_time_s
    CALL_TIME = "call_time"            # a call ran past Limits.time_s
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
    output: str = ""              # what the submission printed during this call (it flushes before each result)

    def to_plain(self) -> dict:
        return {"observation": None if self.observation is None else self.observation.to_plain(),
                "refusal": None if self.refusal is None else self.refusal.value,
                "items_allowed": self.items_allowed,
                "death": None if self.death is None else self.death.to_plain(),
                "skipped": self.skipped, "time_ms": self.time_ms, "output": self.output}

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
                      output=_text(value["output"], "call outcome.output"))
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
    isolation_active: list[str] = field(default_factory=list)
    isolation_failed: list[str] = field(default_factory=list)
    held_bytes: int = 0        # decoded results kept for grading, charged as bytes + a per-node overhead
    node_limits: list[int] = field(default_factory=list)

    def to_plain(self) -> dict:
        return {"outcomes": [o.to_plain() for o in self.outcomes],
                "load_error": None if self.load_error is None else self.load_error.to_plain(),
                "output": self.output, "output_bytes": self.output_bytes, "workers": self.workers,
                "isolation_active": list(self.isolation_active), "isolation_failed": list(self.isolation_failed),
                "held_bytes": self.held_bytes, "node_limits": list(self.node_limits)}

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
                   isolation_active=_texts(value["isolation_active"], "run result.isolation_active"),
                   isolation_failed=_texts(value["isolation_failed"], "run result.isolation_failed"),
                   held_bytes=_integer(value["held_bytes"], "run result.held_bytes"),
                   node_limits=[_integer(n, "run result.node_limits") for n in _list(value["node_limits"],
                                                                                      "run result.node_limits")])


_DEATH_FIELDS = frozenset({"kill", "detail", "exit_code", "signal", "peak_memory_kb", "cpu_s"})
_OUTCOME_FIELDS = frozenset({"observation", "refusal", "items_allowed", "death", "skipped", "time_ms", "output"})
_LOAD_FIELDS = frozenset({"kind", "error", "death"})
_RUN_FIELDS = frozenset({"outcomes", "load_error", "output", "output_bytes", "workers", "isolation_active",
                         "isolation_failed", "held_bytes", "node_limits"})


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
