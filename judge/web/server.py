"""The web page's server: the page on 127.0.0.1 over one Judge, in the foreground or inside a warm judge.

`serve` is `judge serve`: it prints one line, the page's URL with its token,
and serves until interrupted (or, given an idle timeout, until nothing has
asked it anything for that long). Its fork server is started at once, so the
first Submit costs a fork, not an import; it also answers `judge run` on the
warm socket of its key when no warm judge holds that socket already.

`Page` is the same page served from a thread of a process that already holds
a Judge: the warm judge (judge.warm.daemon) starts one when `judge serve
--background` asks for it.
"""
from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
import threading
import time
import webbrowser
from dataclasses import dataclass
from typing import Callable

import uvicorn

from judge.base.errors import ConfigError
from judge.judging.session import Judge
from judge.warm import protocol
from judge.warm.server import Activity, Controls, WarmServer
from judge.web import registry
from judge.web.app import create_app
from judge.web.guard import Guard, new_token


@dataclass(frozen=True)
class ServeOptions:
    problems_dir: str | None = None
    port: int = 0                       # 0: any free port
    open_browser: bool = False
    idle_timeout_s: float | None = None  # None: until interrupted


def listen(port: int) -> socket.socket:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(("127.0.0.1", port))  # loopback only: never reachable from another machine
    except OSError as exc:
        listener.close()
        raise ConfigError(f"--port {port}: cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    listener.listen(64)
    return listener


class _QuietCancel(logging.Filter):
    """Drops uvicorn's report of a response cancelled by the server's own stop (Ctrl+C or `--stop`
    during a streamed Submit: sixty lines of CancelledError, or its one line saying the grace ran out
    and the Submit was cancelled). The page says the server stopped; the terminal says `stopped`."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError):
            return False
        return not str(record.msg).startswith("Cancel %s running task(s), timeout graceful shutdown exceeded")


def _build_server(judge: Judge, guard: Guard, judging: threading.Lock, activity: Activity,
                  stop: Callable[[], None]) -> uvicorn.Server:
    app = create_app(judge, guard, judging=judging, on_activity=activity.touch, on_stop=stop, idle_s=activity.idle_s)
    # A short grace for a Submit under way; the page then says the server stopped.
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=2)
    errors = logging.getLogger("uvicorn.error")  # configured by the Config just made
    if not any(isinstance(f, _QuietCancel) for f in errors.filters):
        errors.addFilter(_QuietCancel())
    return uvicorn.Server(config)


def _prepare_in_background(judge: Judge, note: Callable[[str], None]) -> None:
    """Every problem's expected values, ahead of its first Submit from the page."""
    threading.Thread(target=judge.prepare_all, name="prepare", daemon=True,
                     kwargs={"on_problem": lambda pid, _s, error: error and note(f"{pid} is not ready: {error}")}
                     ).start()


class Page:
    """The web page served from a thread of a process that holds `judge` (a warm judge)."""

    def __init__(self, judge: Judge, judging: threading.Lock, activity: Activity, on_stop: Callable[[], None],
                 note: Callable[[str], None], port: int = 0):
        self.listener = listen(port)
        self.guard = Guard(new_token(), self.listener.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.guard.port}/?token={self.guard.token}"
        self.server = _build_server(judge, guard=self.guard, judging=judging, activity=activity, stop=on_stop)
        # Not the main thread: uvicorn leaves the process's signals alone there.
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.listener]},
                                       name="page", daemon=True)
        self.thread.start()
        _prepare_in_background(judge, note)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.listener.close()


def serve(options: ServeOptions, announce: Callable[[str], None], note: Callable[[str], None]) -> None:
    """Serve until interrupted or idle; `announce` gets the URL line, `note` one-line remarks."""
    judge = Judge(options.problems_dir, ahead=True)
    listener = listen(options.port)
    port = listener.getsockname()[1]
    guard = Guard(new_token(), port)
    activity = Activity()
    judging = threading.Lock()
    url = f"http://127.0.0.1:{port}/?token={guard.token}"

    def stop() -> None:  # `judge serve --stop`, through the page's API or the socket
        server.should_exit = True

    server = _build_server(judge, guard, judging, activity, stop)
    stale_said = threading.Event()

    def on_stale(reason: str) -> None:
        if not stale_said.is_set():
            stale_said.set()
            note(f"{reason}: `judge run` judges by itself until this server is restarted")

    def status() -> dict:
        return {"pid": os.getpid(), "url": url, "root": str(judge.root), "idle_s": round(activity.idle_s(), 1)}

    controls = Controls(status=status, stop=stop, page=lambda _idle, _port: {"url": url})
    warm = WarmServer(judge, judging, on_activity=activity.touch, on_stale=on_stale, on_note=note, controls=controls)
    entry = None
    try:
        try:
            judge.warm()
        except ConfigError as exc:  # a broken problem file: its page says so; serve the rest
            note(f"not warmed up: {exc}")
        remark = warm.start(protocol.socket_path(protocol.judge_key(options.problems_dir, os.getcwd())))
        entry = registry.register(registry.Entry(url=url, pid=os.getpid(), root=str(judge.root), kind="foreground",
                                                 idle_timeout_s=options.idle_timeout_s))
        announce(url)
        _prepare_in_background(judge, note)
        if remark:
            note(remark)
        if options.open_browser:
            webbrowser.open(url)
        if options.idle_timeout_s is not None:
            threading.Thread(target=_stop_when_idle, args=(server, activity, options.idle_timeout_s),
                             name="idle-timeout", daemon=True).start()
        server.run(sockets=[listener])
    finally:
        registry.unregister(entry)
        warm.close()
        listener.close()
        judge.close()


def _stop_when_idle(server: uvicorn.Server, activity: Activity, idle_s: float) -> None:
    while not server.should_exit:
        left = idle_s - activity.idle_s()
        if left <= 0:
            server.should_exit = True
            return
        time.sleep(min(left, 1.0))


def stderr_note(text: str) -> None:
    print(f"note: {text}", file=sys.stderr, flush=True)

