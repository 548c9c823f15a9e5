"""The backend that runs submissions on this machine: `judge.runs.contract.Backend` over a fork server.

It keeps one warm fork server (`judge.sandbox.runner.Sandbox`); a backend
elsewhere (a queue worker on another machine) implements the same contract.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Callable, Sequence

from judge.runs.contract import Limits, Program, RunResult
from judge.base.errors import ConfigError, SandboxError
from judge.runs.calls import Call
from judge.sandbox import DISABLE_ENV
from judge.sandbox.launch import Launched


class SandboxBackend:
    """Runs programs in this machine's sandbox: one warm fork server for every program.

    The server imports numpy and torch (and the judge's experiments, which train with
    torch), whatever the problem's framework: a submission to a numpy problem that
    imports torch out of habit runs in the same kind of process whether this is a
    cold `judge run` or a warm server that judged a torch problem before, so its
    verdict (its memory above all: torch's import is part of the process it starts
    from) never depends on which server happened to be up. A server, once started,
    stays up until `close`. A server that broke under a run (it died, or would not
    start) is dropped, so the next run starts a fresh one. `protect` are the
    directories no run may read; a program's own `hidden` ones travel with its run.
    With `ahead`, the server keeps a run ready for the next submission like the last
    one (`runner.Sandbox`).
    """

    # What the server imports before it forks runs.
    PRELOAD = ("numpy", "torch", "judge.experiments")

    def __init__(self, protect: Sequence[Path] = (), *, launched: Launched | None = None,
                 disable: Sequence[str] | None = None, ahead: bool = False) -> None:
        self.protect = tuple(Path(p).resolve() for p in protect)
        self.ahead = ahead
        self._launched = launched  # a server started before we knew the problem (the CLI overlaps imports)
        self._disable = tuple(disable) if disable is not None else _disabled_from_env()
        self._server: Any = None
        self._lock = threading.Lock()

    def run(self, program: Program, calls: Sequence[Call], limits: Limits, *,
            on_progress: Callable[[RunResult, int], None] | None = None,
            node_limits: Sequence[int] | None = None) -> RunResult:
        sandbox = self.server(program.framework)
        try:
            return sandbox.run(program, list(calls), limits, on_progress=on_progress,
                               node_limits=None if node_limits is None else list(node_limits))
        except (SandboxError, OSError):
            self._drop(sandbox)
            raise

    def server(self, framework: str = "torch"):
        """The fork server, started (in the background) on first use; it serves every framework."""
        from judge.sandbox.runner import Sandbox

        with self._lock:
            if self._server is None:
                self._server = Sandbox(protect=self.protect, disable=self._disable, preload=self.PRELOAD,
                                       launched=self._launched, ahead=self.ahead).start()
                self._launched = None
            return self._server

    def _drop(self, sandbox) -> None:
        """Forget a broken server (and close it): whoever runs next starts a fresh one."""
        with self._lock:
            if self._server is sandbox:
                self._server = None
        sandbox.close()

    def warm(self, frameworks: Sequence[str]) -> None:
        """Start the server now, so the first program costs a fork, not an import (`judge serve`)."""
        self.server()

    def close(self) -> None:
        with self._lock:
            if self._launched is not None:
                self._launched.abandon()
                self._launched = None
            server, self._server = self._server, None
        if server is not None:
            server.close()


def _disabled_from_env() -> tuple[str, ...]:
    if not os.environ.get(DISABLE_ENV):  # the isolation module is only needed to check the names
        return ()
    from judge.sandbox.isolation import disabled_from_env

    try:
        return disabled_from_env()
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
