"""The judge's side of a sandboxed run: send calls, enforce limits, collect outcomes.

`Sandbox` owns one zygote. `Sandbox.run` drives one submission through its
calls: a worker is spawned, sent the source and every remaining call, and
read with a deadline per call. A worker that times out, crashes, floods its
output or exits is killed with its process group; the call in progress gets
that verdict and the remaining calls continue in a fresh worker, so one bad
test never hides the results of the others.

Nothing the worker sends moves a deadline (issue 10, class 4): loading has
`import_time_s` from READY, each call `time_s` from the end of the one
before, and the whole submission an absolute wall clock. Every frame is
parsed strictly (`frames`); a frame out of place or malformed is a
security_violation. Call times are measured here, from frame arrivals.
"""
from __future__ import annotations

import dataclasses
import json as _json
import os
import shutil
import signal
import socket
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from judge import wire
from judge.backend import Program
from judge.errors import SandboxError
from judge.execute import Call, ErrorInfo, Observation
from judge.sandbox import channel, frames
from judge.sandbox.launch import Launched, launch
from judge.sandbox.limits import Limits
from judge.verdict import Verdict

OUTPUT_KEEP = 16 * 1024  # bytes of stdout/stderr kept for display
# A test stopped for time is memory_limit_exceeded when memory is what it was spending its time
# on: it had used at least MEMORY_FLOOR of its limit and, at the pace it took memory per CPU
# second, would have taken MEMORY_PACE of the limit within time_s of CPU (the worker's CPU time
# includes its start, so the pace is an underestimate). Page touching varies 10x in speed on a
# loaded machine, so a hog reaches either limit first by chance (issue 10, class 10); a sleeper
# or a busy loop takes little memory per CPU second and stays time_limit_exceeded.
MEMORY_FLOOR = 0.25
MEMORY_PACE = 0.5
# What one decoded node (a Python object, an ndarray header, a dict slot) costs the judge, measured
# as an upper bound; with Limits.results_total_bytes it bounds the judge's memory per submission.
HELD_PER_NODE = 1024


@dataclass(frozen=True)
class CallOutcome:
    """A call's observation, or the verdict of the sandbox when there is none."""

    observation: Observation | None = None
    verdict: Verdict | None = None
    message: str = ""
    time_ms: float = 0.0
    output: str = ""       # what the submission printed during this call (it flushes before each result)


@dataclass(frozen=True)
class LoadError:
    verdict: Verdict       # compile_error or runtime_error (or a sandbox verdict)
    error: ErrorInfo | None
    message: str


@dataclass
class RunResult:
    outcomes: list[CallOutcome]
    load_error: LoadError | None = None
    output: str = ""
    output_bytes: int = 0
    workers: int = 0
    isolation_active: list[str] = field(default_factory=list)
    isolation_failed: list[str] = field(default_factory=list)
    held_bytes: int = 0        # decoded results kept for grading, charged as bytes + HELD_PER_NODE per node
    node_limits: list[int] = field(default_factory=list)


class Sandbox:
    """A warm fork server; one `run` per submission. Use as a context manager.

    `preload` are the modules the server imports once (e.g. numpy, torch);
    `protect` the directories every child must not see; `disable` layers to
    switch off (tests and debugging only).
    """

    START_TIMEOUT_S = 120.0

    def __init__(self, protect: tuple[Path, ...] | list[Path] = (), disable: tuple[str, ...] = (),
                 preload: tuple[str, ...] = ("numpy",), launched: Launched | None = None) -> None:
        self.protect = tuple(Path(p).resolve() for p in protect)
        self.disable = tuple(disable)
        self.preload = tuple(preload)
        self._process = None
        self._launched = launched
        self.scratch_root: Path | None = None
        self._sock: socket.socket | None = None
        self._ready = False
        self._lock = threading.Lock()

    def protect_also(self, paths: tuple[Path, ...] | list[Path]) -> None:
        """Hide more directories from every later run (e.g. the next graded directory); no restart."""
        self.protect = tuple(dict.fromkeys(self.protect + tuple(Path(p).resolve() for p in paths)))

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
        if self._sock is not None:
            self._sock.close()  # the server exits when its socket closes
            self._sock = None
        if self._process is not None:
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
        if self._sock is None:
            raise RuntimeError("the sandbox is not started")
        with self._lock:
            self._wait_ready()
            self._sock.sendall(channel.SPAWN)
            _, fds, _, _ = socket.recv_fds(self._sock, 1, 3)
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
        it is wrong_answer before it is decoded (issue 10, class 5).
        """
        result = RunResult(outcomes=[CallOutcome() for _ in calls])
        result.node_limits = list(node_limits) if node_limits is not None else [wire.MAX_NODES] * len(calls)
        captured = _Output(limits.output_bytes)
        progress = on_progress or (lambda _result, _done: None)
        start = 0
        began = time.monotonic()
        wall = began + limits.import_time_s + limits.budget_s  # the absolute clock: no frame extends it
        while start < len(calls):
            if start > 0 and time.monotonic() - began > limits.budget_s:
                # A submission that hangs in every test would otherwise cost tests x limit.
                skipped = CallOutcome(verdict=Verdict.TIME_LIMIT_EXCEEDED,
                                      message=f"not run: earlier tests used up this submission's time budget "
                                              f"of {limits.budget_s:g} s")
                result.outcomes[start:] = [skipped] * (len(calls) - start)
                break
            result.workers += 1
            start = _Drive(self._spawn(), program, calls, start, limits, captured, result, progress, wall,
                           self.protect).run()
            if result.load_error is not None:
                break
            progress(result, start)
        if not calls and result.load_error is None:
            result.workers += 1
            _Drive(self._spawn(), program, calls, 0, limits, captured, result, progress, wall, self.protect).run()
        result.output = captured.text()
        result.output_bytes = captured.total
        progress(result, len(calls))
        return result


class _Output:
    def __init__(self, cap: int):
        self.cap = cap
        self.kept = bytearray()
        self.total = 0
        self.mark = 0  # where the output of the call in progress starts in `kept`

    def add(self, data: bytes) -> bool:
        """Record data; False once the total is over the cap."""
        self.total += len(data)
        room = OUTPUT_KEEP - len(self.kept)
        if room > 0:
            self.kept += data[:room]
        return self.total <= self.cap

    def since_mark(self) -> str:
        """What was kept since the last call ended: this call's printed output."""
        text = self.kept[self.mark:].decode("utf-8", errors="replace")
        self.mark = len(self.kept)
        return text

    def text(self) -> str:
        text = self.kept.decode("utf-8", errors="replace")
        if self.total > len(self.kept):
            text += f"\n... ({self.total - len(self.kept)} more bytes not shown)"
        return text


class _Drive:
    """One worker's life: from the request to its exit record."""

    def __init__(self, handles, program: Program, calls: list[Call], start: int, limits: Limits,
                 output: _Output, result: RunResult, progress: Callable[[RunResult, int], None], wall: float,
                 protect: tuple[Path, ...] = ()):
        self.data, self.ctl, self.out = handles
        self.progress = progress
        self.protect = protect
        self.program, self.calls, self.start, self.limits = program, calls, start, limits
        self.output, self.result = output, result
        self.reader = channel.FrameReader(max_frame=limits.result_bytes + (1 << 20))
        self.ctl_reader = channel.FrameReader(max_frame=1 << 16)
        self.exit_record: dict | None = None
        self.loaded = False
        self.protocol = frames.Protocol(first=start, end=len(calls))
        self.wall = wall                # absolute deadline of the whole submission
        self.deadline = min(time.monotonic() + limits.import_time_s, wall)
        self.call_started = 0.0         # when the call in progress began (judge's clock)
        self.stopped_at: float | None = None  # when the judge decided to kill the worker
        self.kill_reason: tuple[Verdict, str] | None = None

    @property
    def current(self) -> int:
        """Index of the call in progress."""
        return self.protocol.current

    # ------------------------------------------------------------ protocol
    def run(self) -> int:
        try:
            self._send_request()
            self._pump()
        finally:
            self._finish()
        return self._next_start()

    def _send_request(self) -> None:
        header = {"source": self.program.source, "filename": self.program.filename,
                  "entry_point": self.program.entry_point, "limits": self.limits.to_plain(),
                  "indices": list(range(self.start, len(self.calls))),
                  "protect": [str(p) for p in self.protect]}
        body = wire.encode([c.to_plain() for c in self.calls[self.start:]], 1 << 34)
        self.data.settimeout(self.limits.import_time_s + 5)
        try:
            channel.send_frame(self.data, channel.REQUEST, _json.dumps(header).encode() + b"\n" + body)
        except OSError:
            pass  # the worker died before reading; its exit record explains why
        self.data.setblocking(False)
        self.ctl.setblocking(False)
        os.set_blocking(self.out, False)

    def _pump(self) -> None:
        open_fds = {self.data.fileno(), self.ctl.fileno(), self.out}
        while self.exit_record is None:
            readable = channel.wait_readable(sorted(open_fds), self.deadline)
            if not readable and time.monotonic() >= self.deadline:
                if self.data.fileno() in open_fds and self.kill_reason is None:
                    self._kill(Verdict.TIME_LIMIT_EXCEEDED, self._overtime())
                self.deadline = time.monotonic() + 5.0  # wait for the monitor's exit record
                if not readable and self.ctl.fileno() not in open_fds:
                    break
                continue
            if self.out in readable:
                data = channel.read_some(self.out)
                if not data:
                    open_fds.discard(self.out)
                elif not self.output.add(data):
                    self._kill(Verdict.OUTPUT_LIMIT_EXCEEDED,
                               f"printed more than {self.limits.output_bytes // 1024} KiB to stdout/stderr")
            if self.data.fileno() in readable:
                data = channel.read_some(self.data.fileno(), 1 << 22)
                if not data:
                    open_fds.discard(self.data.fileno())
                    if self.exit_record is None and self.kill_reason is None:
                        self.deadline = time.monotonic() + 5.0
                elif self.kill_reason is None:
                    # Once the judge has decided to kill this worker, nothing it sends counts:
                    # a late result must not overwrite the verdict of the call in progress.
                    try:
                        for kind, payload in self.reader.feed(data):
                            if self.kill_reason is not None:
                                break
                            self._on_frame(kind, payload)
                    except (channel.ChannelError, ValueError, TypeError, KeyError, OverflowError,
                            RecursionError) as exc:  # WireError and ProtocolError are ValueErrors
                        self._kill(Verdict.SECURITY_VIOLATION,
                                   f"the submission wrote into the judge's result channel ({str(exc)[:200]})")
            if self.ctl.fileno() in readable:
                data = channel.read_some(self.ctl.fileno())
                if not data:
                    open_fds.discard(self.ctl.fileno())
                    if self.exit_record is None:
                        self.exit_record = {"status": None}
                else:
                    self._on_ctl(data)

    def _overtime(self) -> str:
        if time.monotonic() >= self.wall:
            return (f"this submission used up its time budget of "
                    f"{self.limits.import_time_s + self.limits.budget_s:g} s")
        if not self.loaded:
            return f"loading the file took longer than the time limit of {self.limits.import_time_s:g} s"
        return f"this test took longer than the time limit of {self.limits.time_s:g} s"

    def _start_clock(self, seconds: float) -> None:
        self.call_started = time.monotonic()
        self.deadline = min(self.call_started + seconds, self.wall)

    def _on_frame(self, kind: bytes, payload: bytes) -> None:
        """Handle one frame from the worker; raises ProtocolError (or WireError) for anything out of place."""
        self.protocol.accept(kind, payload)
        if kind == channel.READY:
            layers = frames.parse_ready(payload)
            self.result.isolation_active = list(layers.active)
            self.result.isolation_failed = list(layers.failed)
            self._start_clock(self.limits.import_time_s)
        elif kind == channel.LOAD_ERROR:
            load_kind, record = frames.parse_load_error(payload)
            error = ErrorInfo.from_plain(record)
            verdict = Verdict.COMPILE_ERROR if load_kind == "compile" else Verdict.RUNTIME_ERROR
            self.result.load_error = LoadError(verdict, error, error.headline())
        elif kind == channel.LOADED:
            self.loaded = True
            self._call_output()  # printed while loading: in the run's output, not any call's
            self._start_clock(self.limits.time_s)
        elif kind == channel.RESULT:
            index, body = frames.parse_result(payload)
            self.protocol.check_index(index)
            allowed = min(wire.MAX_NODES, self.result.node_limits[index])
            try:
                plain, nodes = wire.decode_counted(body, self.limits.result_bytes + (1 << 20), allowed)
            except wire.TooManyNodes:
                self.protocol.advance()
                self.result.outcomes[index] = CallOutcome(
                    output=self._call_output(), time_ms=self._call_ms(),
                    verdict=Verdict.WRONG_ANSWER,
                    message=f"the result has more than {allowed} items (arrays, numbers, list items, dict keys), "
                            "far more than the expected output has: it cannot match")
                self._start_clock(self.limits.time_s)
                self.progress(self.result, self.current)
                return
            observation = Observation.from_plain(plain)
            # What the judge holds for this submission: bytes plus a per-node overhead, over all calls.
            self.result.held_bytes += len(body) + nodes * HELD_PER_NODE
            if self.result.held_bytes > self.limits.results_total_bytes:
                self._kill(Verdict.OUTPUT_LIMIT_EXCEEDED,
                           f"the results of this submission's calls together are over "
                           f"{self.limits.results_total_bytes >> 20} MiB")
                return
            self.protocol.advance()
            elapsed_ms = (time.monotonic() - self.call_started) * 1000  # the judge's clock, not the child's
            observation = dataclasses.replace(observation, time_ms=elapsed_ms)
            self.result.outcomes[index] = CallOutcome(observation=observation, time_ms=elapsed_ms,
                                                      output=self._call_output())
            self._start_clock(self.limits.time_s)
            self.progress(self.result, self.current)

    def _call_output(self) -> str:
        """The output printed since the previous call: the worker flushes stdout and stderr before it
        sends a result, so everything it printed for this call is already in the pipe."""
        while True:
            data = channel.read_some(self.out)
            if not data:
                break
            if not self.output.add(data):
                self._kill(Verdict.OUTPUT_LIMIT_EXCEEDED,
                           f"printed more than {self.limits.output_bytes // 1024} KiB to stdout/stderr")
                break
        return self.output.since_mark()

    def _on_ctl(self, data: bytes) -> None:
        # The monitor is the judge's own process (forked before the worker): its record is trusted.
        for kind, payload in self.ctl_reader.feed(data):
            if kind == channel.EXIT:
                self.exit_record = _json.loads(payload)

    def _kill(self, verdict: Verdict, message: str) -> None:
        if self.kill_reason is None:
            self.kill_reason = (verdict, message)
            self.stopped_at = time.monotonic()
        try:
            self.ctl.sendall(channel.KILL)
        except OSError:
            pass

    # ------------------------------------------------------------ outcome
    def _finish(self) -> None:
        for closable in (self.data, self.ctl):
            closable.close()
        os.close(self.out)

    def _next_start(self) -> int:
        """Assign a verdict to the call in progress (if any); return where to resume."""
        if self.result.load_error is not None or self.current >= len(self.calls):
            if self.kill_reason is not None and self.kill_reason[0] is Verdict.SECURITY_VIOLATION \
                    and self.result.load_error is None and self.protocol.state != "done":
                # Every result arrived, then the worker broke the protocol (e.g. a forged frame after
                # the last result): the submission's fault, charged to its last call.
                self.result.outcomes[len(self.calls) - 1] = CallOutcome(verdict=self.kill_reason[0],
                                                                         message=self.kill_reason[1])
            return len(self.calls)
        verdict, message = self._death()
        if not self.loaded:
            self.result.load_error = LoadError(verdict, None, message)
            for i in range(self.current, len(self.calls)):
                self.result.outcomes[i] = CallOutcome(verdict=verdict, message=message)
            return len(self.calls)
        self.result.outcomes[self.current] = CallOutcome(verdict=verdict, message=message, time_ms=self._call_ms())
        return self.current + 1

    def _call_ms(self) -> float:
        """How long the call in progress ran on the judge's clock: until the kill, else until now."""
        return ((self.stopped_at or time.monotonic()) - self.call_started) * 1000

    def _memory_used_kb(self) -> int:
        """Peak memory the worker added to what it started with (from the monitor's record)."""
        record = self.exit_record or {}
        return max(0, int(record.get("maxrss_kb", 0)) - int(record.get("baseline_kb", 0)))

    def _death(self) -> tuple[Verdict, str]:
        limit_kb = self.limits.memory_mb * 1024
        if self.kill_reason is not None:
            verdict, message = self.kill_reason
            used = self._memory_used_kb()
            cpu_s = float((self.exit_record or {}).get("cpu_s", 0.0))
            pace_kb = used / max(cpu_s, 0.05) * self.limits.time_s  # memory it would take in time_s of CPU
            if verdict is Verdict.TIME_LIMIT_EXCEEDED and used >= MEMORY_FLOOR * limit_kb \
                    and pace_kb >= MEMORY_PACE * limit_kb:
                return (Verdict.MEMORY_LIMIT_EXCEEDED,
                        f"used {used // 1024} MiB of its {self.limits.memory_mb} MiB memory limit "
                        f"when it was stopped ({message})")
            return self.kill_reason
        record = self.exit_record or {}
        status = record.get("status")
        if status is None:
            return Verdict.JUDGE_ERROR, "the sandbox monitor vanished without an exit status"
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            if sig == signal.SIGKILL and self._memory_used_kb() < limit_kb // 2:
                # Nobody here killed it for time or output and it was far below its memory
                # limit: it killed itself (e.g. os.kill(0, SIGKILL)).
                return Verdict.RUNTIME_ERROR, "the process was killed by SIGKILL before returning a result"
            return _signal_verdict(sig)
        code = os.WEXITSTATUS(status)
        if code == 0:
            return (Verdict.RUNTIME_ERROR,
                    "the process exited (exit status 0) before returning a result: "
                    "calling sys.exit() or os._exit() is not allowed")
        return Verdict.RUNTIME_ERROR, f"the process exited with status {code} before returning a result"


def _signal_verdict(sig: int) -> tuple[Verdict, str]:
    name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else f"signal {sig}"
    if sig == signal.SIGXCPU:
        return Verdict.TIME_LIMIT_EXCEEDED, "used more CPU time than allowed (SIGXCPU)"
    if sig == signal.SIGXFSZ:
        return Verdict.OUTPUT_LIMIT_EXCEEDED, "wrote a file larger than the file-size limit (SIGXFSZ)"
    if sig == signal.SIGSYS:
        return Verdict.SECURITY_VIOLATION, "made a system call that the sandbox forbids (SIGSYS)"
    if sig == signal.SIGSEGV:
        return Verdict.RUNTIME_ERROR, "the process crashed with a segmentation fault (SIGSEGV)"
    if sig == signal.SIGKILL:
        return Verdict.MEMORY_LIMIT_EXCEEDED, "the process was killed (SIGKILL), most likely for using too much memory"
    return Verdict.RUNTIME_ERROR, f"the process was killed by {name}"
