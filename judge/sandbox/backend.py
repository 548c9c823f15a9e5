"""The backend that runs submissions on this machine: `judge.contract.Backend` over the fork servers.

It keeps one warm fork server per framework (`judge.sandbox.runner.Sandbox`); a
backend elsewhere (a queue worker on another machine) implements the same contract.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Callable, Sequence

from judge.contract import Limits, Program, RunResult
from judge.errors import ConfigError, SandboxError
from judge.execute import Call
from judge.sandbox import DISABLE_ENV
from judge.sandbox.launch import Launched


class SandboxBackend:
    """Runs programs in this machine's sandbox: one warm fork server per framework.

    A torch server also serves numpy programs (it imports numpy too), so a numpy program
    uses whichever server is up. A server, once started, stays up until `close`: starting
    the torch one never stops the numpy one under a run in another thread. A server that
    broke under a run (it died, or would not start) is dropped, so the next run starts a
    fresh one. `protect` are the directories no run may read; a program's own `hidden`
    ones travel with its run. With `ahead`, each server keeps a run ready for the next
    submission like the last one (`runner.Sandbox`).
    """

    def __init__(self, protect: Sequence[Path] = (), *, launched: Launched | None = None,
                 disable: Sequence[str] | None = None, ahead: bool = False) -> None:
        self.protect = tuple(Path(p).resolve() for p in protect)
        self.ahead = ahead
        self._launched = launched  # a server started before we knew its framework (the CLI overlaps imports)
        self._disable = tuple(disable) if disable is not None else _disabled_from_env()
        self._servers: dict[str, Any] = {}
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
                              launched=self._launched, ahead=self.ahead).start()
            self._launched = None
            self._servers[framework] = sandbox
            return sandbox

    def _drop(self, sandbox) -> None:
        """Forget a broken server (and close it): whoever runs next starts a fresh one."""
        with self._lock:
            self._servers = {k: s for k, s in self._servers.items() if s is not sandbox}
        sandbox.close()

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
