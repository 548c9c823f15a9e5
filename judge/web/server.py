"""The `judge serve` process: the web page on 127.0.0.1 and the warm judge socket, one Judge for both.

It prints one line, the page's URL with its token, then serves until
interrupted, or, with an idle timeout (`--background`), until nothing has
asked it anything for that long. Its fork server is started at once, so the
first Submit (from the page or from `judge run`) costs a fork, not an import.
"""
from __future__ import annotations

import socket
import sys
import threading
import time
import webbrowser
from dataclasses import dataclass, field
from typing import Callable

import uvicorn

from judge.errors import ConfigError
from judge.session import Judge
from judge.warm.server import WarmServer
from judge.web import registry
from judge.web.app import create_app
from judge.web.guard import Guard, new_token


@dataclass
class Activity:
    """When the server was last asked something (the idle timeout counts from it)."""

    last: float = field(default_factory=time.monotonic)

    def touch(self) -> None:
        self.last = time.monotonic()

    def idle_s(self) -> float:
        return time.monotonic() - self.last


@dataclass(frozen=True)
class ServeOptions:
    problems_dir: str | None = None
    port: int = 0                       # 0: any free port
    open_browser: bool = False
    idle_timeout_s: float | None = None  # None: until interrupted
    stop_when_stale: bool = False        # leave when a newer judge asks (a background server)


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


def serve(options: ServeOptions, announce: Callable[[str], None], note: Callable[[str], None]) -> None:
    """Serve until interrupted or idle; `announce` gets the URL line, `note` one-line remarks."""
    judge = Judge(options.problems_dir, ahead=True)
    listener = listen(options.port)
    port = listener.getsockname()[1]
    guard = Guard(new_token(), port)
    activity = Activity()
    judging = threading.Lock()

    def stop() -> None:  # `judge serve --stop`, through the page's API
        server.should_exit = True

    app = create_app(judge, guard, judging=judging, on_activity=activity.touch, on_stop=stop, idle_s=activity.idle_s)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                           timeout_graceful_shutdown=5))
    stale_said = threading.Event()

    def on_stale(reason: str) -> None:
        if options.stop_when_stale:
            server.should_exit = True
        elif not stale_said.is_set():
            stale_said.set()
            note(f"{reason}: `judge run` judges by itself until this server is restarted")

    warm = WarmServer(judge, judging, on_activity=activity.touch, on_stale=on_stale, on_note=note)
    entry = None
    try:
        try:
            judge.warm()
        except ConfigError as exc:  # a broken problem file: its page says so; serve the rest
            note(f"not warmed up: {exc}")
        remark = warm.start()
        url = f"http://127.0.0.1:{port}/?token={guard.token}"
        entry = registry.register(url, root=judge.root, background=options.stop_when_stale,
                                  idle_timeout_s=options.idle_timeout_s)
        announce(url)
        # Every problem's expected values, ahead of its first Submit or `judge run` (issue 22.9).
        threading.Thread(target=judge.prepare_all, name="prepare", daemon=True,
                         kwargs={"on_problem": lambda pid, _s, error: error and note(f"{pid} is not ready: {error}")}
                         ).start()
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
        left = activity.last + idle_s - time.monotonic()
        if left <= 0:
            server.should_exit = True
            return
        time.sleep(min(left, 1.0))


def stderr_note(text: str) -> None:
    print(f"note: {text}", file=sys.stderr, flush=True)
