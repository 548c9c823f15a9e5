"""Which `judge serve` processes run for this user: `judge serve --status` and `--stop`.

Each server writes one small file, `serve-PID.json`, into the user's private
runtime directory (the warm socket's, 0700): its URL with the token, its pid,
the problem set and when it started; it removes the file on the way out. A
file alone is never believed: a server counts as running only when its own
page answers `GET /api/status` with that token (a server killed without
cleaning up, or a reused pid, is a stale file, removed). Stopping is asked of
the server the same way (`POST /api/stop`), so only a holder of its token can
stop it, and no signal ever reaches a process that is not a judge.
"""
from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from judge.warm import protocol

TOKEN_HEADER = "X-Judge-Token"
ASK_TIMEOUT_S = 5.0
_LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1 never goes through a proxy
STOP_WAIT_S = 30.0  # a Submit under way is given the server's graceful shutdown (5 s) and more


@dataclass(frozen=True)
class Entry:
    """One server as its file says: where it listens, its token, what it serves."""

    url: str            # http://127.0.0.1:PORT/?token=...
    pid: int
    root: str
    started: float      # time.time()
    background: bool
    idle_timeout_s: float | None
    path: Path

    @property
    def base(self) -> str:
        return self.url.split("/?", 1)[0]

    @property
    def token(self) -> str:
        return self.url.split("token=", 1)[1]


@dataclass(frozen=True)
class Running:
    """A server that answered: its file and what it said about itself."""

    entry: Entry
    status: dict

    def line(self, now: float | None = None) -> str:
        now = time.time() if now is None else now
        kind = "background" if self.entry.background else "foreground"
        idle = self.status.get("idle_s")
        leaves = self.entry.idle_timeout_s
        tail = f"; idle {_duration(idle)}" if isinstance(idle, (int, float)) else ""
        if leaves is not None:
            tail += f", leaves after {_duration(leaves)} idle"
        return (f"judge serve ({kind}, pid {self.entry.pid}) at {self.entry.url}\n"
                f"  problems {self.entry.root}; up {_duration(now - self.entry.started)}{tail}")


def directory() -> Path | None:
    return protocol.private_dir(create=False)


def register(url: str, *, root: Path, background: bool, idle_timeout_s: float | None) -> Path | None:
    """Write this process's file; None when there is no private directory to write it to."""
    where = protocol.private_dir(create=True)
    if where is None:
        return None
    path = where / f"serve-{os.getpid()}.json"
    data = {"url": url, "pid": os.getpid(), "root": str(root), "started": time.time(),
            "background": background, "idle_timeout_s": idle_timeout_s}
    partial = path.with_suffix(".partial")
    old_umask = os.umask(0o177)  # 0600: the token is the page's only key
    try:
        partial.write_text(json.dumps(data))
        partial.replace(path)
    finally:
        os.umask(old_umask)
    return path


def unregister(path: Path | None) -> None:
    if path is not None:
        path.unlink(missing_ok=True)


def entries() -> list[Entry]:
    """Every server file, newest first; unreadable ones are skipped (and removed)."""
    where = directory()
    if where is None:
        return []
    found = []
    for path in where.glob("serve-*.json"):
        try:
            data = json.loads(path.read_text())
            found.append(Entry(str(data["url"]), int(data["pid"]), str(data["root"]), float(data["started"]),
                               bool(data["background"]),
                               None if data["idle_timeout_s"] is None else float(data["idle_timeout_s"]), path))
        except (OSError, ValueError, KeyError, TypeError):
            path.unlink(missing_ok=True)
    return sorted(found, key=lambda e: e.started, reverse=True)


def running() -> list[Running]:
    """The servers that answer now; the files of those that do not are removed."""
    alive = []
    for entry in entries():
        status = ask(entry, "GET", "/api/status")
        if status is None or status.get("pid") != entry.pid:
            entry.path.unlink(missing_ok=True)
            continue
        alive.append(Running(entry, status))
    return alive


def stop(server: Running, wait_s: float = STOP_WAIT_S) -> bool:
    """Ask `server` to leave and wait until it no longer answers; whether it left in `wait_s`."""
    ask(server.entry, "POST", "/api/stop")
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if ask(server.entry, "GET", "/api/status") is None:
            server.entry.path.unlink(missing_ok=True)
            return True
        time.sleep(0.2)
    return False


def ask(entry: Entry, method: str, path: str) -> dict | None:
    """The server's JSON answer, or None when it does not answer as a judge with this token."""
    request = urllib.request.Request(entry.base + path, method=method, data=b"" if method == "POST" else None,
                                     headers={TOKEN_HEADER: entry.token})
    try:
        with _LOCAL.open(request, timeout=ASK_TIMEOUT_S) as response:
            answer = json.loads(response.read())
    except (OSError, ValueError):  # refused, reset, timed out, an HTTP error, or not JSON
        return None
    return answer if isinstance(answer, dict) else None


def _duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"
