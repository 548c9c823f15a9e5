"""The schema of every frame a sandbox child sends, and the order they come in.

Everything a child sends is parsed strictly: a frame of an unexpected kind
or at an unexpected moment, a header that is not exactly the JSON object
its kind defines, a second READY or an early DONE raises `ProtocolError`,
which the runner charges to the submission (security_violation), never to
the judge. `Protocol` is the state machine of one worker:

    READY (once, before the submission loads)
    -> LOADED | LOAD_ERROR
    -> RESULT for each call, in the order sent
    -> DONE (after the last RESULT)
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from judge.runs.contract import Refusal
from judge.sandbox import channel

MAX_LAYERS = 32
MAX_LAYER_TEXT = 300


class ProtocolError(ValueError):
    """The child broke the protocol: the submission's fault."""


@dataclass(frozen=True)
class Layers:
    active: tuple[str, ...]
    failed: tuple[str, ...]


def _json_object(payload: bytes, keys: set[str], what: str) -> dict[str, Any]:
    try:
        value = json.loads(payload, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"{what}: not JSON ({str(exc)[:80]})") from None
    if type(value) is not dict or set(value) != keys:
        raise ProtocolError(f"{what}: expected a JSON object with exactly the keys {sorted(keys)}")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def _texts(value: Any, what: str) -> tuple[str, ...]:
    if type(value) is not list or len(value) > MAX_LAYERS or not all(type(v) is str for v in value):
        raise ProtocolError(f"{what}: expected a list of at most {MAX_LAYERS} strings")
    return tuple(v[:MAX_LAYER_TEXT] for v in value)


def parse_ready(payload: bytes) -> Layers:
    value = _json_object(payload, {"active", "failed"}, "READY")
    return Layers(_texts(value["active"], "READY.active"), _texts(value["failed"], "READY.failed"))


def parse_load_error(payload: bytes) -> tuple[str, Any]:
    """(kind, plain error record); the record is checked by ErrorInfo.from_plain."""
    value = _json_object(payload, {"kind", "error"}, "LOAD_ERROR")
    if value["kind"] not in ("compile", "runtime"):
        raise ProtocolError("LOAD_ERROR.kind: expected 'compile' or 'runtime'")
    return value["kind"], value["error"]


def parse_result(payload: bytes) -> tuple[int, Refusal | None, bytes, tuple[str, ...]]:
    """(call index, the child's refusal of the value if it refused it, wire bytes of the observation,
    what the child saw of tampering).

    The header is {"index": i}, plus "refusal": r when the child could not send the value (r is
    "too_large" or "not_returnable"; the observation's error says why), plus "tampering": [...] when
    the child saw the submission reach into internals since the last result (worker._Watch).
    """
    header, newline, body = payload.partition(b"\n")
    if not newline:
        raise ProtocolError("RESULT: no header line")
    try:
        value = json.loads(header, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"RESULT: not JSON ({str(exc)[:80]})") from None
    if type(value) is not dict or "index" not in value or not set(value) <= {"index", "refusal", "tampering"}:
        raise ProtocolError("RESULT: expected a JSON object with the key 'index', and 'refusal' or 'tampering'")
    if type(value["index"]) is not int:
        raise ProtocolError("RESULT.index: expected an integer")
    tampering = _texts(value["tampering"], "RESULT.tampering") if "tampering" in value else ()
    if "refusal" not in value:
        return value["index"], None, body, tampering
    refusal = value["refusal"]
    if refusal not in (Refusal.TOO_LARGE.value, Refusal.NOT_RETURNABLE.value):
        raise ProtocolError(f"RESULT.refusal: expected {Refusal.TOO_LARGE.value!r} or {Refusal.NOT_RETURNABLE.value!r}")
    return value["index"], Refusal(refusal), body, tampering


@dataclass
class Protocol:
    """Where one worker is in the protocol; `accept` raises ProtocolError for a frame out of place."""

    first: int                 # index of the first call this worker was sent
    end: int                   # one past the last
    state: str = "start"       # start -> loading -> calls -> done
    current: int = field(init=False)

    def __post_init__(self) -> None:
        self.current = self.first

    def accept(self, kind: bytes, payload: bytes) -> None:
        if kind == channel.READY and self.state == "start":
            self.state = "loading"
        elif kind in (channel.LOADED, channel.LOAD_ERROR) and self.state == "loading":
            if kind == channel.LOADED and payload:
                raise ProtocolError("LOADED carries no payload")
            self.state = "calls" if kind == channel.LOADED else "done"
        elif kind == channel.RESULT and self.state == "calls" and self.current < self.end:
            pass  # the index is checked by `result`
        elif kind == channel.DONE and self.state == "calls" and self.current == self.end and not payload:
            self.state = "done"
        else:
            raise ProtocolError(f"a {_name(kind)} frame is not allowed {self._where()}")

    def check_index(self, index: int) -> None:
        if index != self.current:
            raise ProtocolError(f"RESULT for call {index} while call {self.current} was running")

    def advance(self) -> None:
        """The current call's result is in (checked and decoded): the next call starts."""
        self.current += 1

    def _where(self) -> str:
        return {"start": "before READY", "loading": "while the file loads",
                "calls": f"while call {self.current} runs" if self.current < self.end else "after the last result",
                "done": "after DONE"}[self.state]


def _name(kind: bytes) -> str:
    names = {channel.READY: "READY", channel.LOAD_ERROR: "LOAD_ERROR", channel.LOADED: "LOADED",
             channel.RESULT: "RESULT", channel.DONE: "DONE"}
    return names.get(kind, f"unknown ({kind[:1]!r})")
