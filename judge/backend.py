"""Execution backends: what runs a submission's calls, declared as a small protocol.

A backend takes a `Program` (the source and what to call), the calls and the
`Limits`, and returns a `RunResult` (`judge.sandbox.result`): facts about what
happened (observations, deaths, kills, refusals), never verdicts, which the judge
decides itself (`judge.verdicts`). Every input and output has a plain (JSON-able)
form (`Program`, `Call`, `Limits`, `RunResult`: `to_plain`/`from_plain`), so a
backend may run on another machine: `SandboxBackend` runs here, in the fork
servers of `judge.sandbox`; a queue worker elsewhere can be one too.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

from judge.errors import ConfigError
from judge.execute import Call
from judge.sandbox.launch import Launched
from judge.sandbox.limits import DISABLE_ENV, Limits
from judge.sandbox.result import RunResult

FRAMEWORKS = ("numpy", "torch")


@dataclass(frozen=True)
class Program:
    """What to run: the submission's source, the function to call, and what it must not read.

    `framework` says which library the fork server must have imported; `hidden` are
    directories this program may not read besides those the backend always hides (the
    directory a submission was graded from, so one student's file cannot read another's).
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
        """Strict: every field present with its type (a request from elsewhere is checked, not trusted)."""
        fields = {"source", "filename", "entry_point", "framework", "hidden"}
        if type(plain) is not dict or set(plain) != fields:
            raise ValueError(f"a program has exactly the fields {', '.join(sorted(fields))}")
        texts = (plain["source"], plain["filename"], plain["entry_point"], plain["framework"])
        if not all(type(t) is str for t in texts) or plain["framework"] not in FRAMEWORKS:
            raise ValueError("a program's source, filename and entry_point are text; framework is numpy or torch")
        hidden = plain["hidden"]
        if type(hidden) is not list or not all(type(h) is str and os.path.isabs(h) for h in hidden):
            raise ValueError("a program's hidden directories are absolute paths")
        return cls(plain["source"], plain["filename"], plain["entry_point"], plain["framework"], tuple(hidden))


class Backend(Protocol):
    """Runs a program's calls under limits and reports what happened.

    `on_progress(result, n)` says the first n outcomes are final (a backend that cannot
    stream calls it once, at the end); `node_limits[i]` caps the items call i's result
    may have before it is refused undecoded. Each outcome's `time_ms` is how long its call
    ran as the backend measured it, whatever became of the call: a test takes as long as its
    slowest call, a call stopped at its time limit included.
    """

    def run(self, program: Program, calls: Sequence[Call], limits: Limits, *,
            on_progress: Callable[[RunResult, int], None] | None = None,
            node_limits: Sequence[int] | None = None) -> RunResult: ...

    def close(self) -> None: ...


class SandboxBackend:
    """Runs programs in this machine's sandbox: one warm fork server per framework.

    A torch server also serves numpy programs (it imports numpy too), so a numpy program
    uses whichever server is up. A server, once started, stays up until `close`: starting
    the torch one never stops the numpy one under a run in another thread.
    """

    def __init__(self, protect: Sequence[Path] = (), *, launched: Launched | None = None,
                 disable: Sequence[str] | None = None) -> None:
        self.protect = tuple(Path(p).resolve() for p in protect)
        self._launched = launched  # a server started before we knew its framework (the CLI overlaps imports)
        self._disable = tuple(disable) if disable is not None else _disabled_from_env()
        self._servers: dict[str, Any] = {}
        self._lock = threading.Lock()

    def run(self, program: Program, calls: Sequence[Call], limits: Limits, *,
            on_progress: Callable[[RunResult, int], None] | None = None,
            node_limits: Sequence[int] | None = None) -> RunResult:
        sandbox = self.server(program.framework)
        if program.hidden:
            sandbox.protect_also(tuple(Path(h) for h in program.hidden))  # no restart: read at each spawn
        return sandbox.run(program, list(calls), limits, on_progress=on_progress,
                           node_limits=None if node_limits is None else list(node_limits))

    def server(self, framework: str):
        """The fork server for `framework`, started (in the background) on first use."""
        from judge.sandbox.runner import Sandbox

        with self._lock:
            found = self._servers.get("torch") or (self._servers.get("numpy") if framework == "numpy" else None)
            if found is not None:
                return found
            # judge.experiments runs training inside the child: imported once in the server, not per child.
            preload = ("numpy", "torch", "judge.experiments") if framework == "torch" else ("numpy",)
            sandbox = Sandbox(protect=self.protect, disable=self._disable, preload=preload,
                              launched=self._launched).start()
            self._launched = None
            self._servers[framework] = sandbox
            return sandbox

    def warm(self, frameworks: Sequence[str]) -> None:
        """Start servers now, so the first program costs a fork, not an import (`judge serve`)."""
        # One server preloading torch serves numpy programs too.
        self.server("torch" if "torch" in frameworks else "numpy")

    def close(self) -> None:
        with self._lock:
            if self._launched is not None:
                self._launched.abandon()
                self._launched = None
            servers, self._servers = list(self._servers.values()), {}
        for sandbox in servers:
            sandbox.close()


def _disabled_from_env() -> tuple[str, ...]:
    if not os.environ.get(DISABLE_ENV):  # the isolation module is only needed to check the names
        return ()
    from judge.sandbox.isolation import disabled_from_env

    try:
        return disabled_from_env()
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
