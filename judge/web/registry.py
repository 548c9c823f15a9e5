"""Which judges serve for this user: `judge serve --status` and `--stop`.

Each server (a foreground `judge serve`, or a warm judge that started itself,
with or without its page) writes one small file, `serve-PID.json`, into the
user's private runtime directory (the warm sockets', 0700): its page's URL with
the token (or none), its warm socket (or none), its pid, the problem set, the
judge installation and when it started; it removes the file on the way out. A
file alone is never believed: a server counts as running only when it answers
with its pid, through its page (`GET /api/status` with the token) or, without
one, through its socket (judge.warm.protocol); a server killed without cleaning
up, or a reused pid, is a stale file, removed. Stopping is asked of the server
the same way (`POST /api/stop`, or the socket's `stop`), so only a holder of
its token or its user can stop it, and no signal ever reaches a process that is
not a judge.
"""
from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from judge.warm import protocol

_JUDGE_DIR = Path(__file__).resolve().parent.parent

TOKEN_HEADER = "X-Judge-Token"
ASK_TIMEOUT_S = 5.0
_LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1 never goes through a proxy
STOP_WAIT_S = 30.0  # a Submit under way is given the server's graceful shutdown and more


@dataclass(frozen=True)
class Entry:
    """One server as its file says: where it listens, what it serves, how it ends."""

    url: str | None     # http://127.0.0.1:PORT/?token=..., or None: a warm judge without its page
    pid: int
    root: str
    kind: str           # "foreground" (judge serve) or "warm" (started by itself or by --background)
    idle_timeout_s: float | None
    socket: str | None = None   # the warm socket it answers on, when it holds one
    judge: str = str(_JUDGE_DIR)  # the judge installation that runs it
    started: float = field(default_factory=time.time)
    path: Path | None = None    # its file, once read

    @property
    def base(self) -> str:
        return self.url.split("/?", 1)[0] if self.url else f"pid {self.pid}"

    @property
    def token(self) -> str:
        return self.url.split("token=", 1)[1] if self.url else ""

    def to_json(self) -> dict:
        return {"url": self.url, "pid": self.pid, "root": self.root, "kind": self.kind, "started": self.started,
                "idle_timeout_s": self.idle_timeout_s, "socket": self.socket, "judge": self.judge}

    @classmethod
    def from_json(cls, data: dict, path: Path) -> "Entry":
        idle = data["idle_timeout_s"]
        kind = data.get("kind") or ("warm" if data.get("background") else "foreground")  # files of older judges
        return cls(None if data["url"] is None else str(data["url"]), int(data["pid"]), str(data["root"]),
                   str(kind), None if idle is None else float(idle),
                   None if data.get("socket") is None else str(data["socket"]), str(data.get("judge", "")),
                   float(data["started"]), path)


@dataclass(frozen=True)
class Running:
    """A server that answered: its file and what it said about itself."""

    entry: Entry
    status: dict

    def name(self) -> str:
        """How `judge serve --stop` names it."""
        if self.entry.kind == "warm":
            url = self.status.get("url") or self.entry.url
            return f"the warm judge (pid {self.entry.pid})" + (f" and its page at {url.split('/?')[0]}" if url else "")
        return f"judge serve at {self.entry.base} (pid {self.entry.pid})"

    def line(self, now: float | None = None) -> str:
        now = time.time() if now is None else now
        entry = self.entry
        idle = self.status.get("idle_s")
        leaves = self.status.get("idle_timeout_s", entry.idle_timeout_s)
        tail = f"; idle {_format_duration(idle)}" if isinstance(idle, (int, float)) else ""
        if isinstance(leaves, (int, float)):
            tail += f", leaves after {_format_duration(leaves)} idle"
        url = self.status.get("url") or entry.url
        if entry.kind == "warm":
            head = f"warm judge (pid {entry.pid}) for `judge run`" + (
                f", page at {url}" if url else ", no page (`judge serve --background` serves one)")
        else:
            head = f"judge serve (foreground, pid {entry.pid}) at {url}"
        other = "" if entry.judge in ("", str(_JUDGE_DIR)) else f"; judge {entry.judge}"
        return f"{head}\n  problems {entry.root}{other}; up {_format_duration(now - entry.started)}{tail}"


def directory() -> Path | None:
    return protocol.private_dir(create=False)


def register(entry: Entry) -> Path | None:
    """Write (or rewrite) this process's file; None when there is no private directory to write it to."""
    where = protocol.private_dir(create=True)
    if where is None:
        return None
    path = where / f"serve-{entry.pid}.json"
    partial = path.with_suffix(".partial")
    old_umask = os.umask(0o177)  # 0600: the token is the page's only key
    try:
        partial.write_text(json.dumps(entry.to_json()))
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
            found.append(Entry.from_json(json.loads(path.read_text()), path))
        except (OSError, ValueError, KeyError, TypeError):
            path.unlink(missing_ok=True)
    return sorted(found, key=lambda e: e.started, reverse=True)


def running() -> list[Running]:
    """The servers that answer now; the files of those that do not are removed."""
    alive = []
    for entry in entries():
        status = ask(entry, "status")
        if status is None or status.get("pid") != entry.pid:
            entry.path.unlink(missing_ok=True)
            continue
        alive.append(Running(entry, status))
    return alive


def stop(server: Running, wait_s: float = STOP_WAIT_S) -> bool:
    """Ask `server` to leave and wait until it no longer answers; whether it left in `wait_s`."""
    ask(server.entry, "stop")
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        status = ask(server.entry, "status")
        if status is None or status.get("pid") != server.entry.pid:
            if server.entry.path is not None:
                server.entry.path.unlink(missing_ok=True)
            return True
        time.sleep(0.2)
    return False


def ask(entry: Entry, op: str) -> dict | None:
    """The server's answer to `status` or `stop`, through its page when it has one, else its socket;
    None when it does not answer as a judge (with this token)."""
    if entry.url is None:
        if entry.socket is None:
            return None
        answer = protocol.exchange(Path(entry.socket), {"op": op}, connect_timeout_s=ASK_TIMEOUT_S)
        return None if answer is None or "fallback" in answer else answer
    method, path = ("GET", "/api/status") if op == "status" else ("POST", "/api/stop")
    request = urllib.request.Request(entry.base + path, method=method, data=b"" if method == "POST" else None,
                                     headers={TOKEN_HEADER: entry.token})
    try:
        with _LOCAL.open(request, timeout=ASK_TIMEOUT_S) as response:
            answer = json.loads(response.read())
    except (OSError, ValueError):  # refused, reset, timed out, an HTTP error, or not JSON
        return None
    return answer if isinstance(answer, dict) else None


def _format_duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"
