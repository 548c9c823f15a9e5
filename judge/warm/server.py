"""The server side of the warm judge: answers `judge run` requests with a running Judge.

A thread accepts connections on the socket of its key (see protocol.py)
and judges each request with the server's `Judge`, whose fork server already
imported the framework, so a run costs a fork and the tests. It answers only
this user (SO_PEERCRED), only a client of the same judge code and context;
anything else gets `{"fallback": reason}` and the client judges by itself,
as it does for a configuration error (whose message names files relative to
the client's working directory).
Problem files are read afresh on every run (and expected values are cached
by the files' contents), so edited problems take effect without a restart.

The run is recorded in the progress database after the client has its
answer: the client's wall clock does not wait for SQLite. The recording
holds the judging lock, so the next run starts after it and attempts keep
their order. A recording that fails then cannot reach the client as the
warning a cold run prints: the server says so in its log (`on_note`) and
records every later run before answering it, so that the next run carries
the warning as a cold run does.

Besides runs, a request may carry an `op`: `status` (what `judge serve --status`
shows of a warm judge without a page), `stop`, and `page` (serve the web page
too, from this process: `judge serve --background`), each answered through
the process's `Controls`.
"""
from __future__ import annotations

import os
import socket
import struct
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from judge.base.errors import ConfigError, SandboxError
from judge.model.locate import primary as find_set
from judge.judging.budget import Refinement
from judge.render import terminal_output
from judge.render.text import refinement_output
from judge.base.report import Report
from judge.judging.session import Judge
from judge.base.submission import Submission
from judge.warm import protocol


@dataclass
class Activity:
    """When the server was last asked something (the idle timeout counts from it)."""

    last: float = field(default_factory=time.monotonic)

    def touch(self) -> None:
        self.last = time.monotonic()

    def idle_s(self) -> float:
        return time.monotonic() - self.last


@dataclass(frozen=True)
class Controls:
    """What the process serving the socket does when asked: say what it is, leave, serve its page."""

    status: Callable[[], dict]
    stop: Callable[[], None]
    page: Callable[[float | None, int], dict] | None = None  # (idle timeout, port) -> {"url"} or {"error"}


@dataclass(frozen=True)
class _Attempt:
    """A run answered but not yet recorded."""

    problem: str
    report: Report
    submission: Submission
    examples_only: bool


class WarmServer:
    """Serves warm runs for `judge` until `close()`; `on_stale` is called when a newer judge asks."""

    def __init__(self, judge: Judge, judging: threading.Lock, *, on_activity: Callable[[], None] | None = None,
                 on_stale: Callable[[str], None] | None = None, on_note: Callable[[str], None] | None = None,
                 controls: Controls | None = None):
        self.judge = judge
        self.controls = controls
        self.judging = judging
        self.on_activity = on_activity
        self.on_stale = on_stale
        self.on_note = on_note
        self.record_after_reply = True  # until a recording fails (see the module's docstring)
        self.fingerprint = protocol.fingerprint()
        self.installed = _list_installed()   # a pack installed later may clash with a problem id: see `_judge`
        self.path: Path | None = None
        self._inode: int | None = None   # of our socket file: close() removes only that one
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None

    def start(self, path: Path) -> str | None:
        """Listen on `path` (protocol.socket_path of this server's key); None when listening, else why not."""
        if protocol.private_dir(create=True) is None:
            return f"{protocol.socket_dir()} is not a directory private to this user; the CLI stays cold"
        if protocol.answers(path):
            return f"another judge serve already answers on {path}; the CLI uses that one"
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            path.unlink(missing_ok=True)  # a socket left by a server that did not stop cleanly
            old_umask = os.umask(0o177)   # created 0600: no window in which others could connect
            try:
                sock.bind(str(path))
            finally:
                os.umask(old_umask)
            sock.listen(16)
            self._inode = os.stat(path).st_ino
        except OSError as exc:
            sock.close()
            return f"cannot listen on {path}: {exc.strerror or exc}; the CLI stays cold"
        self.path, self._sock = path, sock
        self._thread = threading.Thread(target=self._serve, name="warm-judge", daemon=True)
        self._thread.start()
        return None

    def owns_socket(self) -> bool:
        """Whether our socket file is still the one on our path (no other server replaced it)."""
        return self._sock is not None and self.path is not None and _read_inode(self.path) == self._inode

    def close(self) -> None:
        if self._sock is not None:
            try:
                if self.path is not None and _read_inode(self.path) == self._inode:
                    self.path.unlink(missing_ok=True)
            finally:
                self._sock.close()
                self._sock = None

    def _serve(self) -> None:
        while self._sock is not None:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self._handle, args=(conn,), name="warm-run", daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        attempt = None
        with conn:
            if _peer_uid(conn) != os.geteuid():
                return  # the socket's mode already forbids this; a second lock on the same door
            try:
                conn.settimeout(10)  # a request arrives whole at once; a client that stalls is dropped
                request = protocol.receive(conn)
                conn.settimeout(None)
                response, attempt, follow = self._judge(request)
            except (OSError, ValueError):
                return
            try:
                protocol.reply(conn, response)
                if follow is not None:  # the diagnosis' refinement, printed under the report when it comes
                    more = follow()
                    if more is not None:
                        protocol.reply(conn, more)
            except OSError:
                pass  # the client left (Ctrl+C); its run is recorded all the same
        if attempt is not None:  # the connection is closed: the client has its answer and may leave
            self._record(attempt)

    def answer(self, request: dict) -> dict:
        """The response to one request: the output of `judge run`, or why the client must judge itself.

        The run is recorded before this returns (`_handle` records after sending instead); a refinement of its
        diagnosis is not waited for (only a terminal client is told of one).
        """
        response, attempt, _ = self._judge(request)
        if attempt is not None:
            self._record(attempt)
        return response

    def _judge(self, request: dict) -> tuple[dict, _Attempt | None, Callable[[], dict | None] | None]:
        """The response, the attempt still to record (None: nothing to record, or already recorded), and for a
        terminal's run whose diagnosis goes on, what gives the refinement's text once it comes (None: none)."""
        op = request.get("op", "run")
        if op == "status" and self.controls is not None:
            return self.controls.status(), None, None  # asking how long it has been idle is no activity
        if self.on_activity is not None:
            self.on_activity()
        if op == "stop" and self.controls is not None:
            self.controls.stop()
            return {"stopping": True}, None, None
        if request.get("fingerprint") != self.fingerprint:
            if self.on_stale is not None:
                self.on_stale("the judge's code changed since this server started")
            return {"fallback": "stale"}, None, None
        reason = self._context_differs(request.get("context"))
        if reason:
            return {"fallback": reason}, None, None
        if op == "page":
            if self.controls is None or self.controls.page is None:
                return {"error": "this judge serves no page"}, None, None
            idle, port = request.get("idle_timeout_s"), request.get("port")
            return self.controls.page(float(idle) if isinstance(idle, (int, float)) and idle > 0 else None,
                                      port if isinstance(port, int) and 0 <= port < 65536 else 0), None, None
        if op != "run":
            return {"fallback": f"unknown op {op!r}"}, None, None
        if _list_installed() != self.installed:
            # pip installed or removed something (a pack, perhaps): this server knows the packs it started
            # with only, so it leaves; the client's own run sees them all (and refuses a clash).
            if self.on_stale is not None:
                self.on_stale("the installed packages changed since this server started")
            return {"fallback": "stale"}, None, None
        try:
            self.judge.problem_set.ids()        # two sets holding one problem id: every command refuses
        except ConfigError:
            return {"fallback": "error"}, None, None
        data, label, problem_id = request.get("data"), request.get("label"), request.get("problem")
        if not isinstance(data, bytes) or not all(isinstance(v, str) for v in (label, problem_id)):
            return {"fallback": "malformed request"}, None, None
        flags = {k: bool(request.get(k)) for k in ("examples_only", "json", "verbose", "colour", "report")}
        unrecorded = request.get("record") is False  # a notebook's check(record=False)
        origin = request.get("origin") if isinstance(request.get("origin"), str) else label
        try:
            with self.judging:
                # The submission's directory is protected as `judge run` protects it (no classmate's file).
                file = Path(origin) if Path(origin).is_absolute() else None
                # Decoded here as `judge run` decodes a file; one that is not text, or too large,
                # falls back (ConfigError below) and the client's own run says so.
                submission = Submission.from_bytes(data, label, origin=origin, path=file,
                                                   directory=file.parent if file is not None else None)
                later = self.record_after_reply and self.judge.record and not unrecorded
                # A terminal's report comes without waiting for the whole diagnosis (judge.judging.budget); a
                # notebook's, read as a whole, and one asked for with -v (everything) are complete.
                refinement = Refinement() if not (flags["report"] or flags["verbose"]) else None
                report = self.judge.submit(problem_id, submission, examples_only=flags["examples_only"],
                                           record=False if later or unrecorded else None,
                                           on_refined=refinement.put if refinement is not None else None)
        except (ConfigError, SandboxError):
            # The client's own run says what is wrong, with paths relative to its working directory
            # (ours may be another); errors are rare, so they may cost a cold start.
            return {"fallback": "error"}, None, None
        attempt = _Attempt(problem_id, report, submission, flags["examples_only"]) if later else None
        if flags["report"]:  # a notebook renders the report itself
            return {"code": 0 if report.accepted else 1, "report": report.to_json()}, attempt, None
        width = request.get("width") if isinstance(request.get("width"), int) else None
        width = max(40, min(width, 400)) if width else None
        if flags["json"] and report.refining:  # a script reads one report: the refined one when it comes
            report = refinement.wait() or report
            report.refining = False
        next_step = self.judge.tutor.next_step(problem_id) if report.accepted and not flags["examples_only"] else None
        stdout, stderr = terminal_output(report, as_json=flags["json"], verbose=flags["verbose"],
                                         examples_only=flags["examples_only"], colour=flags["colour"],
                                         width=width, next_step=next_step)
        response = {"code": 0 if report.accepted else 1, "stdout": stdout, "stderr": stderr,
                    "refining": report.refining}
        if not report.refining:
            return response, attempt, None
        first = report

        def follow() -> dict:
            return {"stdout": refinement_output(first, refinement.wait(), colour=flags["colour"], width=width)}

        return response, attempt, follow

    def _record(self, attempt: _Attempt) -> None:
        with self.judging:  # before the next run: attempts keep their order
            failure = self.judge.tutor.record_run(attempt.problem, attempt.report, attempt.submission,
                                                  examples_only=attempt.examples_only)
        if failure is not None:
            self.record_after_reply = False
            if self.on_note is not None:
                self.on_note(f"the run of {attempt.submission.origin} was answered but not recorded: {failure}; "
                             "later runs are recorded before they are answered")

    def _context_differs(self, context: object) -> str | None:
        if not isinstance(context, dict) or not isinstance(context.get("env"), dict):
            return "malformed context"
        env = context["env"]
        for key in protocol.CONTEXT_ENV:
            if key != "JUDGE_PROBLEMS_DIR" and env.get(key) != os.environ.get(key):
                return f"{key} differs"
        cwd, explicit = context.get("cwd"), context.get("problems_dir")
        if not isinstance(cwd, str) or not (explicit is None or isinstance(explicit, str)):
            return "malformed context"
        try:
            root = find_set(explicit, cwd=Path(cwd), environ=env).root
        except ConfigError:
            return "no problem set"  # the client's own run says what is wrong
        return None if root.resolve() == self.judge.root.resolve() else "another problem set"


def _list_installed() -> tuple[tuple[str, int], ...]:
    """When each site-packages directory on the path last changed: installing a distribution (a pack's
    .dist-info among them) changes it. A stat each: cheap enough for every run."""
    found = []
    for entry in sys.path:
        if Path(entry).name in ("site-packages", "dist-packages"):
            try:
                found.append((entry, os.stat(entry).st_mtime_ns))
            except OSError:
                continue
    return tuple(found)


def _peer_uid(conn: socket.socket) -> int | None:
    try:
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except (OSError, AttributeError):
        return None
    return struct.unpack("3i", creds)[1]


def _read_inode(path: Path) -> int | None:
    """The inode at `path`: a later server that replaced our socket file has another one."""
    try:
        return os.stat(path).st_ino
    except OSError:
        return None
