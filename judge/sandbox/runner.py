"""The judge's side of a sandboxed run: send calls, enforce limits, collect outcomes.

`Sandbox` owns one zygote. `Sandbox.run` drives one submission through its
calls: a worker is spawned, sent the source and every remaining call, and
read with a deadline per call. A worker that times out, crashes, floods its
output or exits is killed with its process group; the call in progress gets
the facts of its death (`result.Death`: why it was killed, its exit status or
signal, peak memory, CPU time) and the remaining calls continue in a fresh
worker, so one bad test never hides the results of the others. The runner
reports facts only: `judge.runs.decisions` decides what they mean. One worker's life, from
its REQUEST to its exit record, is `judge.sandbox.drive`'s; this module decides which worker runs which calls.

Nothing the worker sends moves a deadline: loading has
`import_time_s` from READY, each call `time_s` from the end of the one
before, and the whole submission an absolute wall clock. Every frame is
parsed strictly (`frames`); a frame out of place or malformed kills the
worker (Kill.MALFORMED_FRAME). Call times are measured here, from frame arrivals.

A sandbox made with `ahead=True` (a long-lived judge: `judge serve`, a batch, a
service worker) keeps a run ready: after each run it hands the next worker
that run's calls, limits and hidden directories (REQUEST), and the worker
decodes them and applies every isolation layer while nobody waits. A later
run on the same calls (the same objects: the same prepared problem) with the
same limits and directories takes it and sends only its PROGRAM, with its own
order of the calls (that set-up is a large share of a short run).
Anything else is sent both frames by a worker forked for it, as before.
"""
from __future__ import annotations

import queue
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

from judge.base import encoding as wire
from judge.runs.contract import WALL_BACKSTOP, CallOutcome, Death, Kill, Limits, Program, RunResult
from judge.base.errors import SandboxError
from judge.runs.calls import Call
from judge.sandbox import channel, frames
from judge.sandbox.drive import Drive, Output
from judge.sandbox.requested import Requested
from judge.sandbox.launch import Launched, launch

class Sandbox:
    """A warm fork server; one `run` per submission. Use as a context manager.

    `preload` are the modules the server imports once (e.g. numpy, torch);
    `protect` the directories every child must not see; `disable` layers to
    switch off (tests and debugging only).
    """

    START_TIMEOUT_S = 120.0

    def __init__(self, protect: tuple[Path, ...] | list[Path] = (), disable: tuple[str, ...] = (),
                 preload: tuple[str, ...] = ("numpy",), launched: Launched | None = None, ahead: bool = False) -> None:
        self.protect = tuple(Path(p).resolve() for p in protect)
        self.disable = tuple(disable)
        self.preload = tuple(preload)
        self.ahead = ahead
        self._ready_runs: list[Requested] = []  # runs sent their REQUEST, waiting for a PROGRAM
        self._ready_lock = threading.Lock()
        # What to make ahead, for one thread that lives as long as the sandbox: starting a thread
        # per run would hold up the run's own report (Thread.start waits until the thread runs).
        self._to_prepare: queue.SimpleQueue | None = None
        self._process = None
        self._launched = launched
        self.scratch_root: Path | None = None
        self._sock: socket.socket | None = None
        self._ready = False
        self._lock = threading.Lock()
        self._inputs = wire.EncodedCache(Call.to_plain, 1 << 34)  # a prepared problem's calls, sent to every run

    def start(self) -> "Sandbox":
        """Start the fork server in the background (returns at once)."""
        if self._process is None:
            server = self._launched or launch()  # a server launched earlier has been importing meanwhile
            self._launched = None
            # Every run's scratch directory lives in here; close() removes whatever is left.
            self.scratch_root = Path(tempfile.mkdtemp(prefix="tensor-judge-"))
            server.configure({"scratch_root": str(self.scratch_root), "protected": [str(p) for p in self.protect],
                              "disabled": list(self.disable), "preload": list(self.preload)})
            self._process, self._sock = server.process, server.sock
        return self

    def close(self) -> None:
        with self._ready_lock:
            self.ahead = False
            waiting, self._ready_runs = self._ready_runs, []
            if self._to_prepare is not None:
                self._to_prepare.put(None)  # the preparing thread ends
        for run in waiting:
            run.discard()
        if self._sock is not None:
            self._sock.close()  # the server exits when its socket closes
            self._sock = None
        if self._process is not None:
            if not self._ready:
                # Never used (a file that did not compile): it may still be importing torch, for
                # seconds. It has no run to clean up after; its scratch root is removed below.
                self._process.kill()
            try:
                self._process.wait(timeout=5)
            except Exception:  # noqa: BLE001 - any failure to stop politely ends in a kill
                self._process.kill()
                self._process.wait()
            self._process = None
            self._ready = False
            shutil.rmtree(self.scratch_root, ignore_errors=True)

    def _wait_ready(self) -> None:
        if self._ready:
            return
        self._sock.settimeout(self.START_TIMEOUT_S)
        try:
            message = self._sock.recv(1)
        except OSError as exc:
            raise SandboxError(f"the sandbox's fork server did not start: {exc}") from None
        finally:
            self._sock.settimeout(None)
        if message != channel.SERVER_READY:
            reason = ""
            if message == channel.SERVER_FAILED:
                self._sock.settimeout(5)
                try:
                    reason = self._sock.recv(4096).decode(errors="replace")
                except OSError:
                    pass
            code = self._process.poll()
            raise SandboxError(f"the sandbox's fork server failed to start (exit status {code}): "
                               f"{reason or 'it ended before importing ' + ', '.join(self.preload)}")
        self._ready = True

    def __enter__(self) -> "Sandbox":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _spawn(self) -> tuple[socket.socket, socket.socket, int]:
        sock = self._sock  # once: close() may clear it meanwhile (a run made ahead, in its thread)
        if sock is None:
            raise RuntimeError("the sandbox is not started")
        with self._lock:
            self._wait_ready()
            sock.sendall(channel.SPAWN)
            _, fds, _, _ = socket.recv_fds(sock, 1, 3)
        if len(fds) != 3:
            raise RuntimeError("the sandbox zygote did not hand over a run")
        data = socket.socket(fileno=fds[0])
        ctl = socket.socket(fileno=fds[1])
        return data, ctl, fds[2]

    def run(self, program: Program, calls: list[Call], limits: Limits,
            on_progress: Callable[[RunResult, int], None] | None = None,
            node_limits: list[int] | None = None) -> RunResult:
        """Run every call; `on_progress(result, n)` says the first n outcomes are final (streaming).

        `node_limits[i]` caps the items call i's observation may have: a result over its
        cap cannot match what is expected of it (the judge knows the expected structure);
        it is wrong_answer before it is decoded.
        """
        result = RunResult(outcomes=[CallOutcome() for _ in calls])
        result.node_limits = list(node_limits) if node_limits is not None else [wire.MAX_NODES] * len(calls)
        captured = Output(limits.output_bytes)
        progress = on_progress or (lambda _result, _done: None)
        start = 0
        began = time.monotonic()
        # The absolute clock, a backstop as generous as each call's: no frame extends it.
        wall = began + WALL_BACKSTOP * (limits.import_time_s + limits.budget_s)
        spent_cpu, waited = 0.0, False
        hidden = tuple(Path(h).resolve() for h in program.hidden)  # this run's own, besides the server's
        while start < len(calls):
            # Restarts after kills share one budget: CPU time, or the wall clock once a call was ended for
            # waiting (a file that waits in one test waits in the next; the machine's load is no excuse).
            wall_budget = limits.budget_s if waited else WALL_BACKSTOP * limits.budget_s
            if start > 0 and (spent_cpu > limits.budget_s or time.monotonic() - began > wall_budget):
                # A submission that hangs in every test would otherwise cost tests x limit.
                result.outcomes[start:] = [CallOutcome(skipped=True)] * (len(calls) - start)
                break
            result.workers += 1
            requested = self._take_ready(calls, limits, hidden) if start == 0 else None
            if requested is None:
                requested = self._request(calls[start:], limits, hidden)
            drive = Drive(requested, program, calls, start, limits, captured, result, progress, wall)
            start = drive.run()
            spent_cpu += drive.cpu_spent
            waited = waited or (drive.kill is not None and drive.kill[0] in (Kill.CALL_WALL, Kill.LOAD_WALL))
            if result.load_error is not None:
                break
            progress(result, start)
        if not calls and result.load_error is None:
            result.workers += 1
            Drive(self._request([], limits, hidden), program, calls, 0, limits, captured, result, progress,
                   wall).run()
        if self.ahead and calls:
            self._prepare_next(calls, limits, hidden)
        result.output = captured.text()
        result.output_bytes = captured.total
        progress(result, len(calls))
        return result

    # ------------------------------------------------------------ runs sent their REQUEST

    def _request(self, calls: list[Call], limits: Limits, hidden: tuple[Path, ...]) -> "Requested":
        """A worker of its own, sent the REQUEST for `calls` (in this order)."""
        requested = Requested(self._spawn(), calls, limits, hidden)
        requested.send(self._inputs)
        return requested

    def _take_ready(self, calls: list[Call], limits: Limits, hidden: tuple[Path, ...]) -> "Requested | None":
        """A run kept ready for these very calls, limits and hidden directories, if one is alive."""
        with self._ready_lock:
            found = next((r for r in self._ready_runs if r.serves(calls, limits, hidden)), None)
            if found is not None:
                self._ready_runs.remove(found)
        if found is not None and not found.alive():
            found.discard()
            return None
        return found

    def _prepare_next(self, calls: list[Call], limits: Limits, hidden: tuple[Path, ...]) -> None:
        """Keep a run ready for the next submission like this one. It is made by the preparing
        thread (the zygote forks it once this run's worker has gone): the caller has its result now."""
        with self._ready_lock:
            if not self.ahead:
                return
            if self._to_prepare is None:
                self._to_prepare = queue.SimpleQueue()
                threading.Thread(target=self._prepare, args=(self._to_prepare,), name="judge-run-ahead",
                                 daemon=True).start()
            self._to_prepare.put((list(calls), limits, hidden))

    def _prepare(self, jobs: queue.SimpleQueue) -> None:
        """The preparing thread: spawn and send a REQUEST for each job, until close()."""
        while (job := jobs.get()) is not None:
            try:
                requested = self._request(*job)
            except (OSError, RuntimeError, SandboxError):
                continue  # the server is closing or broken: the next run spawns its own worker and says so
            with self._ready_lock:
                keep = self.ahead
                surplus = [requested]
                if keep:
                    # A few kinds of run at most (the problems a learner switches between): the
                    # oldest is let go; each holds a forked worker.
                    self._ready_runs.append(requested)
                    surplus, self._ready_runs = self._ready_runs[:-READY_RUNS], self._ready_runs[-READY_RUNS:]
            for run in surplus:
                run.discard()


# How many runs a sandbox keeps ready at most: one per grading thread of a batch on this
# project's 2 cores, or the last two problems run by a warm server.
READY_RUNS = 2
