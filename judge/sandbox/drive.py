"""One worker's life, on the judge's side: from its REQUEST to its exit record.

`Drive` sends the program, reads the worker's frames and the monitor's records, keeps each call's clock
(its CPU time, read from the worker's process clock, with a wall-clock backstop), kills the worker when a
limit runs out or a frame is out of place, reads the arguments in the arena again at every result, and
fills the run's outcomes with facts: what each call returned or how the worker ended. Nothing the worker
sends moves a deadline. `judge.sandbox.runner` decides which worker runs which calls.
"""
from __future__ import annotations

import dataclasses
import json as _json
import os
import socket
import time
from typing import Callable

from judge.base import encoding as wire
from judge.runs.contract import WALL_BACKSTOP, CallOutcome, Death, Isolation, Kill, Limits, LoadError, LoadKind, Program, \
    Refusal, RunResult
from judge.runs.calls import Call, ErrorInfo, Observation
from judge.sandbox import channel, frames
from judge.sandbox.arena import Arena
from judge.sandbox.cpuclock import CpuClock
from judge.sandbox.requested import Requested

OUTPUT_KEEP = 16 * 1024  # bytes of stdout/stderr kept for display
# What one decoded node (a Python object, an ndarray header, a dict slot) costs the judge, measured
# as an upper bound; with Limits.results_total_bytes it bounds the judge's memory per submission.
HELD_PER_NODE = 1024
# The most lines of tampering the child may add to a run's report (each at most frames.MAX_LAYER_TEXT).
MAX_TAMPERING = 16
# After DONE, how long a worker may take to end (close its channels and exit) before it is killed (it
# does so at once: only a submission that holds them open or keeps its process alive waits this long).
DONE_GRACE_S = 0.5
# After DONE and the channel's end, how often the judge asks for the arena's seal against writing.
SEAL_POLL_S = 0.0005
# After a kill, how long the monitor may take to report the worker's end; then the run is abandoned.
REAP_S = 3.0
# After the data channel closed before DONE, how long its exit record may take to arrive.
EXIT_WAIT_S = 2.0
# The shortest wait between two looks at a running call's CPU time (its limit is looked at when it could
# have run out at the earliest: its CPU time left, spread over every core, and no sooner than this).
CPU_LOOK_S = 0.01
_CORES = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))



class Output:
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


class Drive:
    """One worker's life: from the request to its exit record."""

    def __init__(self, requested: Requested, program: Program, calls: list[Call], start: int, limits: Limits,
                 output: Output, result: RunResult, progress: Callable[[RunResult, int], None], wall: float):
        self.requested = requested
        self.data, self.ctl, self.out = requested.data, requested.ctl, requested.out
        self.progress = progress
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
        self.cpu = CpuClock()           # the worker's CPU time, once the monitor has said which process it is
        self.timing = False             # a limit runs: loading's or a call's
        self.cpu_start: float | None = None  # the worker's CPU time when it started (None: no CPU clock here)
        self.cpu_budget = 0.0           # its limit, in CPU seconds
        self.backstop = 0.0             # when the wall clock ends it all the same
        self.cpu_spent = 0.0            # the worker's whole CPU time, once it has ended
        self.stopped_cpu_ms = 0.0       # the call's CPU time when the judge decided to kill the worker
        self.stopped_at: float | None = None  # when the judge decided to kill the worker
        self.kill: tuple[Kill, str] | None = None  # why the judge killed this worker, and the particulars
        self.places: dict[int, int] = {}  # call index in the judge's list -> its place in the request
        self.indices: dict[int, int] = {}  # ...and back
        self.out_of_memory: dict[int, str] = {}  # call index -> what the monitor measured, for calls that ran out
        self.ended = False              # the judge has sent KILL: from now on it waits for the exit record only
        self.abandoned = False          # ...which did not come within REAP_S
        if requested.early:
            self._on_ctl(bytes(requested.early))  # the monitor's records read while the worker waited

    @property
    def current(self) -> int:
        """Index of the call in progress."""
        return self.protocol.current

    # ------------------------------------------------------------ protocol
    def run(self) -> int:
        try:
            self._send_program()
            # The worker loads the file now, a millisecond or more before its first result: the caller's
            # own work that waits for no result (grading's scan of the source) is done meanwhile.
            self.progress(self.result, self.start)
            self._pump()
        finally:
            self._finish()
        return self._next_start()

    def _send_program(self) -> None:
        order = self.requested.order(self.calls, self.start)
        self.places = dict((i, place) for i, place in order)  # where each call's arguments are in the arena
        self.indices = {place: i for i, place in order}
        program = {"source": self.program.source, "filename": self.program.filename,
                   "entry_point": self.program.entry_point, "order": order}
        self.data.settimeout(self.limits.import_time_s + 5)
        try:
            channel.send_frame(self.data, channel.PROGRAM, _json.dumps(program).encode())
        except OSError:
            pass  # the worker died before reading; its exit record explains why
        self.data.setblocking(False)
        self.ctl.setblocking(False)
        os.set_blocking(self.out, False)

    def _pump(self) -> None:
        """Read the worker until it has ended, or until the clock says to stop waiting for it.

        Every wait is bounded: a call by its own clock and the submission's
        absolute wall clock; after DONE, DONE_GRACE_S for the worker to end; after
        a kill, REAP_S for the monitor's exit record. A worker that still holds its channels then
        (a duplicated stdout, a thread, a descendant) is killed with its whole PID namespace, and a
        run whose monitor cannot report even that is abandoned: its call in progress ends with no
        exit status (judge_error), and the judge goes on (closing the control socket tells the
        monitor to kill whatever is left). Nothing ever waits past the wall clock plus REAP_S.
        """
        open_fds = {self.data.fileno(), self.ctl.fileno(), self.out}
        # The exit record can come before the judge has read all the worker sent: a channel holds
        # megabytes (zygote.CHANNEL_BUFFER), and a worker may write its last result, DONE, and exit.
        # What is still in it was sent before the end, so it is read to the channel's end (the
        # worker's whole PID namespace is gone by then) unless the judge has stopped listening.
        # A worker that said DONE and closed its channel sends nothing more, but its code may still run (a
        # thread, a rebound os._exit) and change the arguments in the arena. The run ends when the arena is
        # sealed against writing, which the kernel grants once no process maps it writable (the worker's
        # mapping goes with its exit), or with the exit record, whichever comes first.
        while self.exit_record is None or (self.data.fileno() in open_fds and not self.ended):
            closed = self.protocol.state == "done" and self.data.fileno() not in open_fds and self.kill is None
            if closed and self.requested.arena.unwritable():
                break
            readable = channel.wait_readable(sorted(open_fds),
                                             min(self.deadline, time.monotonic() + SEAL_POLL_S) if closed
                                             else self.deadline)
            if not readable and time.monotonic() >= self.deadline:
                if not self.ended:
                    if self.timing and not self._limit_reached():
                        continue  # not yet: the next look is set
                    self._end()
                    continue
                self.abandoned = True  # killed, and no exit record within REAP_S: stop waiting for it
                break
            # The monitor's records first: one that concerns a call (its memory measured) was written
            # before the worker could send that call's result.
            if self.ctl.fileno() in readable:
                data = channel.read_some(self.ctl.fileno())
                if not data:
                    open_fds.discard(self.ctl.fileno())
                    if self.exit_record is None:
                        self.exit_record = {"status": None}
                else:
                    self._on_ctl(data)
            # Frames next: a worker sends a result only once the judge has read what its call printed
            # (worker._drained), so output read after a result's frame is the next call's.
            if self.data.fileno() in readable:
                data = channel.read_some(self.data.fileno(), 1 << 22)
                if not data:
                    open_fds.discard(self.data.fileno())
                    if not self.ended and self.protocol.state != "done":  # after DONE: DONE_GRACE_S stands
                        # Nothing more can come from it; its exit record is a moment away, unless it
                        # lives on without its channel (then the call's own clock ends it).
                        self.deadline = min(max(self.deadline, time.monotonic() + EXIT_WAIT_S), self.wall)
                elif self.kill is None and not self.ended:
                    # Once the judge has decided to kill this worker, nothing it sends counts:
                    # a late result must not overwrite the death of the call in progress.
                    try:
                        for kind, payload in self.reader.feed(data):
                            if self.kill is not None:
                                break
                            self._on_frame(kind, payload)
                    except (channel.ChannelError, ValueError, TypeError, KeyError, OverflowError,
                            RecursionError) as exc:  # WireError and ProtocolError are ValueErrors
                        self._kill(Kill.MALFORMED_FRAME, str(exc)[:200])
                    if self.protocol.state == "done" and self.kill is None:
                        self._after_done(open_fds)
            if self.out in open_fds and self.out in readable:
                data = channel.read_some(self.out)
                if not data:
                    open_fds.discard(self.out)
                elif not self.output.add(data):
                    self._kill(Kill.OUTPUT_FLOOD)  # a no-op when the worker is being killed already

    def _after_done(self, open_fds: set[int]) -> None:
        """DONE: every result is in. Nothing printed from now on is credited: the judge stops reading
        the output (a write to a duplicated stdout fails at once, so no flush can block on it), and
        the worker has DONE_GRACE_S to end before it is killed (no verdict changes then)."""
        if self.out in open_fds:
            open_fds.discard(self.out)
            os.close(self.out)
            self.out = -1
        self.timing = False
        self.deadline = min(time.monotonic() + DONE_GRACE_S, self.wall)

    def _end(self) -> None:
        """The deadline passed: kill the worker (for time, unless every result is in) and give the
        monitor REAP_S to report its exit."""
        if self.protocol.state == "done" and self.kill is None:
            self._send_kill()  # a worker lingering after DONE: no verdict changes
        else:
            kill = self._overtime()
            used = self._cpu_used() if kill in (Kill.CALL_WALL, Kill.LOAD_WALL) else None
            self._kill(kill, "" if used is None else f"{used:.2f}")  # the CPU seconds it had used
        self.ended = True
        self.deadline = time.monotonic() + REAP_S

    def _overtime(self) -> Kill:
        """Which clock ran out: the submission's, or loading's or the call's CPU time or its wall-clock backstop."""
        if time.monotonic() >= self.wall:
            return Kill.WALL_CLOCK
        used = self._cpu_used()
        computing = used is None or used >= self.cpu_budget  # with no CPU clock, the wall clock is the limit
        if self.loaded:
            return Kill.CALL_TIME if computing else Kill.CALL_WALL
        return Kill.LOAD_TIME if computing else Kill.LOAD_WALL

    def _start_clock(self, seconds: float, cpu_now: float | None = None) -> None:
        """A limit of `seconds` of the worker's CPU time starts (loading, or a call), with its wall-clock
        backstop; where no CPU clock can be read, `seconds` of the wall clock. `cpu_now`: the worker's
        CPU time read a moment ago (one read serves the call that ended and the one that starts)."""
        now = time.monotonic()
        self.call_started = now
        if not self.cpu.attached:
            self._read_ctl_now()  # the monitor's WORKER record, should this loop not have read it yet
        self.cpu_start = cpu_now if cpu_now is not None else self.cpu.seconds()
        self.cpu_budget = seconds
        self.backstop = min(now + (seconds if self.cpu_start is None else WALL_BACKSTOP * seconds), self.wall)
        self.timing = True
        self.deadline = self._next_look(now, 0.0)

    def _cpu_used(self) -> float | None:
        """The CPU time the worker has used since the limit in force started (None: no CPU clock)."""
        now = self.cpu.seconds() if self.cpu_start is not None else None
        return None if now is None else now - self.cpu_start

    def _next_look(self, now: float, used: float | None) -> float:
        if used is None:
            return self.backstop
        left = self.cpu_budget - used
        return min(now + max(left / _CORES, CPU_LOOK_S), self.backstop)

    def _limit_reached(self) -> bool:
        """Whether the limit in force ran out (its CPU time, or its backstop); else set the next look."""
        now = time.monotonic()
        used = self._cpu_used()
        if (used is not None and used >= self.cpu_budget) or now >= self.backstop:
            return True
        self.deadline = self._next_look(now, used)
        return False

    def _cpu_ms(self) -> float:
        used = self._cpu_used()
        return 0.0 if used is None else round(used * 1000, 1)

    def _on_frame(self, kind: bytes, payload: bytes) -> None:
        """Handle one frame from the worker; raises ProtocolError (or WireError) for anything out of place."""
        self.protocol.accept(kind, payload)
        if kind == channel.READY:
            layers = frames.parse_ready(payload)
            self.result.isolation = _isolation(layers.active, layers.failed)
            self._start_clock(self.limits.import_time_s)
        elif kind == channel.LOAD_ERROR:
            load_kind, record = frames.parse_load_error(payload)
            self.result.load_error = LoadError(kind=LoadKind(load_kind), error=ErrorInfo.from_plain(record))
        elif kind == channel.LOADED:
            self.loaded = True
            self._call_output()  # printed while loading: in the run's output, not any call's
            self._start_clock(self.limits.time_s)
        elif kind == channel.RESULT:
            index, refusal, body, tampering = frames.parse_result(payload)
            self.protocol.check_index(index)
            for said in tampering:
                if said not in self.result.tampering and len(self.result.tampering) < MAX_TAMPERING:
                    self.result.tampering.append(said)
            allowed = min(wire.MAX_NODES, self.result.node_limits[index])
            try:
                plain, nodes = wire.decode_counted(body, self.limits.result_bytes + (1 << 20), allowed)
            except wire.TooManyNodes:
                self.protocol.advance()
                self.result.outcomes[index] = CallOutcome(refusal=Refusal.TOO_MANY_ITEMS, items_allowed=allowed,
                                                          output=self._call_output(), time_ms=self._call_ms())
                self._start_clock(self.limits.time_s)
                self.progress(self.result, self.current)
                return
            observation = Observation.from_plain(plain)
            if (refusal is not None) != (observation.error is not None and observation.error.where == "return"):
                raise frames.ProtocolError("RESULT: a refused value comes with the refusal, and only then")
            # What the judge holds for this submission: bytes plus a per-node overhead, over all calls.
            self.result.held_bytes += len(body) + nodes * HELD_PER_NODE
            if self.result.held_bytes > self.limits.results_total_bytes:
                self._kill(Kill.RESULTS_TOTAL)
                return
            self.protocol.advance()
            elapsed_ms = (time.monotonic() - self.call_started) * 1000  # the judge's clock, not the child's
            cpu_now = self.cpu.seconds() if self.cpu_start is not None else None
            cpu_ms = 0.0 if cpu_now is None else round((cpu_now - self.cpu_start) * 1000, 1)  # as a report keeps it
            if observation.error is not None:
                # A call that raised may have a memory record (judge.sandbox.memory): the monitor wrote it to
                # the control channel before the worker sent this result, so what this loop has not read
                # of that channel yet is read now.
                self._read_ctl_now()
            # The arguments as the judge reads them in the arena, whatever the child said of them.
            observation = self.requested.arena.measured(self.places[index],
                                                        dataclasses.replace(observation, time_ms=elapsed_ms))
            self.result.outcomes[index] = CallOutcome(observation=observation, refusal=refusal, time_ms=elapsed_ms,
                                                      cpu_ms=cpu_ms, output=self._call_output(),
                                                      out_of_memory=self.out_of_memory.pop(index, ""))
            self._look_again()
            self._start_clock(self.limits.time_s, cpu_now)
            self.progress(self.result, self.current)

    def _look_again(self) -> None:
        """Read the arguments of every call whose result is in again: a submission that kept one and changed
        it later (in a later call, after its last result, as it exits) changed that call's arguments. The
        arena decides (`Arena.moved`), never the child's account or torch's version counters. A revised
        outcome is a new object: a caller that judged the old one while the run went on judges it again."""
        arena = self.requested.arena
        for place in arena.moved():
            index = self.indices.get(place)
            outcome = self.result.outcomes[index] if index is not None else None
            if outcome is None or outcome.observation is None:
                continue  # not this run's call yet, or a call with nothing measured (its failure decides it)
            observation = arena.measured(place, outcome.observation)
            if observation is not outcome.observation:
                self.result.outcomes[index] = dataclasses.replace(outcome, observation=observation)

    def _call_output(self) -> str:
        """The output printed since the previous call: the worker sends a result only once the judge
        has read its call's output (or after waiting worker.DRAIN_WAIT_S for it), so it is all in."""
        return self.output.since_mark()

    def _on_ctl(self, data: bytes) -> None:
        # The monitor is the judge's own process (forked before the worker): its records are trusted.
        for kind, payload in self.ctl_reader.feed(data):
            if kind == channel.EXIT:
                self.exit_record = _json.loads(payload)
            elif kind == channel.WORKER:
                pid = _json.loads(payload).get("pid")
                if isinstance(pid, int) and pid > 0:
                    self.cpu.attach(pid)
            elif kind == channel.MEMORY:
                record = _json.loads(payload)
                index = record.get("index")
                if isinstance(index, int) and 0 <= index < len(self.calls) and index not in self.out_of_memory:
                    self.out_of_memory[index] = str(record.get("detail", "its memory reached its limit"))

    def _read_ctl_now(self) -> None:
        """The monitor's records already in the control channel; its end (b"" here too) is left to `_pump`."""
        data = channel.read_some(self.ctl.fileno())  # non-blocking: nothing there reads as b""
        if data:
            self._on_ctl(data)

    def _kill(self, reason: Kill, detail: str = "") -> None:
        self.timing = False
        if self.kill is None:
            self.kill = (reason, detail)
            self.stopped_at = time.monotonic()
            self.stopped_cpu_ms = self._cpu_ms()
        self._send_kill()
        if not self.ended:
            # The monitor kills at once (SIGKILL to the worker, the init of its PID namespace, and to
            # its process group) and reports; REAP_S bounds the wait for that report.
            self.ended = True
            self.deadline = time.monotonic() + REAP_S

    def _send_kill(self) -> None:
        try:
            self.ctl.sendall(channel.KILL)
        except OSError:
            pass

    # ------------------------------------------------------------ outcome
    def _finish(self) -> None:
        # Nothing changes the arena any more: it is sealed against writing, or the worker has ended with its
        # whole PID namespace (unless the run was abandoned: its monitor never said so).
        self._look_again()
        record = self.exit_record or {}
        self.cpu_spent = float(record.get("cpu_s") or 0.0) or (self.cpu.seconds() or 0.0)
        self.cpu.close()
        for closable in (self.data, self.ctl, self.requested.arena):
            closable.close()  # the monitor kills whatever is left of the worker when its socket closes
        if self.out >= 0:
            os.close(self.out)

    def _next_start(self) -> int:
        """Record the death of the call in progress (if any); return where to resume."""
        if self.abandoned and self.result.load_error is None:
            # Killed, and the monitor never said it ended: no fact about the call explains it
            # (no kill reason is kept, so it reads as the judge's error, not the submission's).
            death = Death()
            if not self.loaded:
                self.result.load_error = LoadError(death=death)
                return len(self.calls)
            index = min(self.current, len(self.calls) - 1)
            if index >= 0:
                self.result.outcomes[index] = CallOutcome(death=death, time_ms=self._call_ms(),
                                                          cpu_ms=self.stopped_cpu_ms)
            return index + 1
        if self.result.load_error is not None or self.current >= len(self.calls):
            if self.kill is not None and self.kill[0] is Kill.MALFORMED_FRAME \
                    and self.result.load_error is None and self.protocol.state != "done":
                # Every result arrived, then the worker broke the protocol (e.g. a forged frame after
                # the last result): the submission's fault, charged to its last call.
                self.result.outcomes[len(self.calls) - 1] = CallOutcome(death=self._death())
            return len(self.calls)
        death = self._death()
        if not self.loaded:
            self.result.load_error = LoadError(death=death)
            return len(self.calls)
        self.result.outcomes[self.current] = CallOutcome(death=death, time_ms=self._call_ms(),
                                                         cpu_ms=self.stopped_cpu_ms)
        return self.current + 1

    def _call_ms(self) -> float:
        """How long the call in progress ran on the judge's clock: until the kill, else until now."""
        return ((self.stopped_at or time.monotonic()) - self.call_started) * 1000

    @staticmethod
    def _peak_kb(record: dict) -> int:
        """Peak memory: what the worker's resident size grew by; when the memory cgroup's OOM killer
        ended it, the group's peak, which counts what resident memory misses (memfd, shm, tmpfs pages).
        Not otherwise: the group also counts page cache the run read in, which the kernel reclaims
        before it kills, and would make a run stopped for time look like one stopped for memory."""
        rss = max(0, int(record.get("maxrss_kb", 0)) - int(record.get("baseline_kb", 0)))
        if int(record.get("oom_kills", 0)) > 0:
            return max(rss, int(record.get("group_peak_kb", 0)))
        return rss

    def _death(self) -> Death:
        """The facts of this worker's end: the judge's kill, and the monitor's record (trusted: the
        monitor is the judge's own process, forked before the worker)."""
        record = self.exit_record or {}
        status = record.get("status")
        kill, detail = self.kill if self.kill is not None else (None, "")
        return Death(kill=kill, detail=detail,
                     exit_code=os.WEXITSTATUS(status) if status is not None and not os.WIFSIGNALED(status) else None,
                     signal=os.WTERMSIG(status) if status is not None and os.WIFSIGNALED(status) else None,
                     peak_memory_kb=self._peak_kb(record),
                     cpu_s=float(record.get("cpu_s", 0.0)))


def _isolation(active, failed) -> Isolation:
    """The layers a worker reported on READY (sent before the submission ran), with what the missing ones expose."""
    if not failed:
        return Isolation(tuple(active))
    from judge.sandbox.isolation import exposure  # only where a layer is missing: its import costs the judge

    return Isolation(tuple(active), tuple(failed), exposure(list(failed)))
