"""The warm judge that starts itself: one per user, judge installation, problem set and environment.

Started by judge.warm.spawn (the first `judge run`, `--watch`, a notebook's
first check, `judge serve --background`), it holds its key's lock for its
whole life, so no second one starts, and forks once so that its starter
reaps the first process at once. It then starts its fork server (numpy and
torch imported once) and listens on its key's socket; every `judge run` of
the same key is answered there, each submission in a fresh sandboxed child as
a cold run's is. It serves the web page too once asked (`judge serve
--background`, op `page`).

It leaves by itself after `JUDGE_WARM_IDLE` seconds without a run or a page
request (DEFAULT_IDLE_S unless set), when `judge serve --stop` asks, when
another server took its socket's path, or when a newer version of its own
installation asks it to run something: then it gives up its socket and lock
(so the new one starts) and leaves, unless its page is in use, which it goes on
serving until idle. It never touches another key's socket. Its remarks go to
its log, `warm-KEY.log` beside the socket.
"""
from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path

from judge.warm import protocol

DEFAULT_IDLE_S = 900.0
IDLE_ENV = "JUDGE_WARM_IDLE"


def idle_timeout(given: float | None = None) -> float:
    """The idle timeout: `given` (judge serve --idle-timeout), else $JUDGE_WARM_IDLE, else DEFAULT_IDLE_S."""
    if given is not None:
        return given
    try:
        value = float(os.environ.get(IDLE_ENV, ""))
    except ValueError:
        return DEFAULT_IDLE_S
    return value if value > 0 else DEFAULT_IDLE_S


def main(argv: list[str]) -> None:
    """`--key KEY [--problems-dir DIR] [--idle-timeout S]`; never returns (the process exits)."""
    os.closerange(3, 1 << 16)  # nothing of the starter's open files (a pipe it writes to) lives on here
    options = dict(zip(argv[::2], argv[1::2]))
    problems_dir = options.get("--problems-dir")
    key = protocol.judge_key(problems_dir, os.getcwd())
    if key != options.get("--key") or protocol.private_dir(create=True) is None:
        os._exit(1)  # started with another environment than its starter's, or nowhere private to listen
    lock = os.open(protocol.lock_path(key), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os._exit(0)  # another one is starting or serving
    if os.fork() > 0:
        os._exit(0)  # the lock stays with the child: its starter sees it held as soon as this exits
    try:
        os.ftruncate(2, 0)  # the log holds this judge's remarks only
    except OSError:
        pass  # not a file: whoever started it reads its remarks elsewhere
    idle = float(options["--idle-timeout"]) if "--idle-timeout" in options else None
    code = 1
    try:
        code = _Daemon(problems_dir, key, lock, idle_timeout(idle)).serve()
    except Exception:  # noqa: BLE001 - nobody sees a background process fail but through its log
        import traceback

        traceback.print_exc()
    finally:
        sys.stderr.flush()
        os._exit(code)


class _Daemon:
    """The warm judge's life: start, serve runs (and the page once asked), leave when idle or told.

    Requests arrive on the warm server's threads; `changed` guards what they change (the page, the
    socket and lock, the registry file)."""

    def __init__(self, problems_dir: str | None, key: str, lock: int, idle_s: float):
        import threading
        import time

        from judge.warm.server import Activity

        self.problems_dir = problems_dir
        self.key = key
        self.lock: int | None = lock       # the key's flock, held while this judge answers on its socket
        self.idle_s = idle_s
        self.started = time.time()
        self.activity = Activity()
        self.judging = threading.Lock()    # one submission at a time, from the socket or the page
        self.stopping = threading.Event()
        self.changed = threading.Lock()
        self.judge = None
        self.warm = None
        self.page = None
        self.entry_path: Path | None = None

    def serve(self) -> int:
        import signal

        from judge.sandbox.launch import launch

        launched = launch()  # the fork server imports numpy and torch while we import the judge
        from judge.base.errors import ConfigError
        from judge.judging.session import Judge
        from judge.warm.server import Controls, WarmServer
        from judge.web import registry

        signal.signal(signal.SIGTERM, lambda *_: self.stopping.set())
        self.judge = Judge(self.problems_dir, launched=launched, ahead=True)
        try:
            try:
                self.judge.warm()
            except ConfigError as exc:  # a broken problem file: its runs say so; serve the rest
                self.note(f"not warmed up: {exc}")
            controls = Controls(status=self.status, stop=self.stopping.set, page=self.serve_page)
            self.warm = WarmServer(self.judge, self.judging, on_activity=self.activity.touch,
                                   on_stale=self.on_stale, on_note=self.note, controls=controls)
            remark = self.warm.start(protocol.socket_path(self.key))
            if remark:
                self.note(remark)
                return 0
            self.activity.touch()  # idle from now, not from before the fork server's start
            self.register()
            self.wait()
            return 0
        finally:
            with self.changed:
                if self.page is not None:
                    self.page.stop()
                registry.unregister(self.entry_path)
            if self.warm is not None:
                self.warm.close()
            self.judge.close()

    def wait(self) -> None:
        """Until stopped, idle for `idle_s`, or left with neither socket nor page."""
        while not self.stopping.wait(min(1.0, max(0.05, self.idle_s - self.activity.idle_s()))):
            if self.judging.locked():  # a run (or a Submit) under way is no idle time, however long
                self.activity.touch()
            if self.activity.idle_s() >= self.idle_s:
                return
            if self.lock is not None and not self.warm.owns_socket():
                self.note("another server took this judge's socket")
                self.give_up_socket()
            if self.lock is None and self.page is None:
                return

    # ------------------------------------------------------------ asked through the socket
    def status(self) -> dict:
        return {"pid": os.getpid(), "url": self.page.url if self.page is not None else None,
                "root": str(self.judge.root), "idle_s": round(self.activity.idle_s(), 1),
                "idle_timeout_s": self.idle_s}

    def serve_page(self, idle_timeout_s: float | None, port: int) -> dict:
        """Serve the page too (started once); the idle timeout asked for, if any, from now on."""
        with self.changed:
            if idle_timeout_s is not None:
                self.idle_s = idle_timeout_s
            if self.page is None:
                try:
                    from judge.web.server import Page
                except ImportError as exc:
                    return {"error": f"the page needs the web extra ({exc.name} is missing): "
                                     f"pip install 'tensor-judge[web]'"}
                from judge.base.errors import ConfigError

                try:
                    self.page = Page(self.judge, self.judging, self.activity, self.stopping.set, self.note, port)
                except ConfigError as exc:
                    return {"error": str(exc)}
            self.register_locked()
            return {"url": self.page.url}

    def on_stale(self, reason: str) -> None:
        """A newer version of this installation asked: its own warm judge takes our socket and lock."""
        self.note(f"{reason}: leaving the warm socket to the new version")
        self.give_up_socket()

    # ------------------------------------------------------------ helpers
    def give_up_socket(self) -> None:
        with self.changed:
            if self.lock is None:
                return
            self.warm.close()
            os.close(self.lock)  # releases it: the new version's judge may start now
            self.lock = None
            if self.page is None:
                self.stopping.set()
            else:
                self.register_locked()

    def register(self) -> None:
        with self.changed:
            self.register_locked()

    def register_locked(self) -> None:
        from judge.web import registry

        entry = registry.Entry(url=self.page.url if self.page is not None else None, pid=os.getpid(),
                               root=str(self.judge.root), kind="warm", idle_timeout_s=self.idle_s,
                               socket=str(self.warm.path) if self.lock is not None else None,
                               started=self.started)
        self.entry_path = registry.register(entry)

    def note(self, text: str) -> None:
        print(f"note: {text}", file=sys.stderr, flush=True)
