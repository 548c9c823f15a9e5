"""What the warm client and server agree on; standard library only.

Each judge installation, problem set and environment has its own warm judge
and its own socket, `warm-KEY.sock` (`judge_key()`: the judge package's
directory, the problem set a run would use, and the variables of
`CONTEXT_ENV`), so a clone's judge and an installed one, or two problem sets,
never answer or stop each other. `warm-KEY.lock` is held (flock) by the warm
judge that started itself for that key, for its whole life: whoever holds
it is starting or serving, and no second one starts.

The sockets live in a directory only this user can enter ($XDG_RUNTIME_DIR
when set, else $TMPDIR when set, else /tmp), and both sides check that: the client
refuses a directory or socket owned by someone else or open to others (so no
other user can plant a socket to collect submissions), the server checks its
peer's uid (SO_PEERCRED). A request is one dict of plain values (str, bytes,
int, bool, None, dicts), a response another, each sent whole in `marshal`'s
format before the writer shuts its side down. marshal is built into the
interpreter, so the client imports nothing to speak it (json's import is a
visible share of a warm run); it is no format for strangers, and only this
user's own processes reach the socket (both checks above).

A server answers only a client of the same judge in the same context:
`fingerprint()` changes when the judge's code changes (its files' names,
sizes and times), and `context()` holds everything in the caller's
environment that changes what a run does or where it is recorded. Any
difference sends the client back to judging by itself.
"""
from __future__ import annotations

import marshal
import os
import stat
import zlib
from collections.abc import Iterator  # loaded already by the interpreter's own imports
from pathlib import Path

# The C socket module that `socket` wraps: the client needs none of the wrapper's extras,
# and importing `socket` (with selectors and enum) is a tenth of a warm client's start.
import _socket

MAX_MESSAGE = 4 << 20  # a request carries the file's bytes: a source of at most 1 MiB, and room to say it is more
MARSHAL_VERSION = 4     # both ends write this version, whatever their Python's default

# Variables that change what a run does or where it is recorded (judge.learner.progress, judge.model.cache,
# judge.sandbox, judge.model.problem): a server in another environment must not answer.
CONTEXT_ENV = ("JUDGE_HOME", "JUDGE_NO_RECORD", "JUDGE_CACHE_DIR", "JUDGE_SANDBOX_DISABLE", "JUDGE_PROBLEMS_DIR",
               "XDG_DATA_HOME", "XDG_CACHE_HOME", "HOME")
_JUDGE_DIR = Path(__file__).resolve().parent.parent


def socket_dir() -> Path:
    for variable in ("XDG_RUNTIME_DIR", "TMPDIR"):  # not tempfile.gettempdir(): its import is slow
        base = os.environ.get(variable)
        if base and os.path.isabs(base):
            return Path(base) / f"tensor-judge-{os.geteuid()}"
    return Path("/tmp") / f"tensor-judge-{os.geteuid()}"


def judge_key(problems_dir: str | None, cwd: str) -> str:
    """Which warm judge serves a run from `cwd` naming `problems_dir`: this installation of the judge,
    the problem set the run would use, and the environment that changes a run."""
    parts = [str(_JUDGE_DIR), problem_set_key(problems_dir, cwd)]
    parts += [f"{name}={os.environ.get(name)}" for name in CONTEXT_ENV if name != "JUDGE_PROBLEMS_DIR"]
    return f"{zlib.crc32(chr(0).join(parts).encode()):08x}"


def problem_set_key(problems_dir: str | None, cwd: str) -> str:
    """The problem set `judge.model.locate.primary` would choose, found with a few stat calls (no imports):
    the directory named by the flag or JUDGE_PROBLEMS_DIR, else the one the working directory is in,
    else the installed course. The server checks the set itself; this only names the socket."""
    for named in (problems_dir, os.environ.get("JUDGE_PROBLEMS_DIR")):
        if named:
            return os.path.realpath(os.path.join(cwd, os.path.expanduser(named)))
    here = cwd
    while True:
        if _is_problem_set(here):
            return os.path.realpath(here)
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    for course in (_JUDGE_DIR.parent / "judge_course", _JUDGE_DIR.parent):  # a wheel's course; a checkout
        if _is_problem_set(str(course)):
            return os.path.realpath(course)
    return "installed course"


def _is_problem_set(path: str) -> bool:
    return os.path.isdir(os.path.join(path, "problems")) and os.path.isdir(os.path.join(path, "hidden_tests"))


def socket_path(key: str) -> Path:
    return socket_dir() / f"warm-{key}.sock"


def lock_path(key: str) -> Path:
    return socket_dir() / f"warm-{key}.lock"


def log_path(key: str) -> Path:
    """Where a warm judge that started itself writes its remarks (its standard error)."""
    return socket_dir() / f"warm-{key}.log"


def private_dir(create: bool) -> Path | None:
    """The socket's directory when it is ours alone (created 0700 if asked), else None."""
    directory = socket_dir()
    if create:
        try:
            directory.mkdir(mode=0o700, exist_ok=True)
        except OSError:
            return None
    try:
        info = os.lstat(directory)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
        return None
    return directory


def owned_socket(path: Path) -> bool:
    """True when `path` is a socket of this user's that no one else may open."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISSOCK(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o077


def fingerprint() -> str:
    """Identifies this judge's code: a changed or reinstalled judge gets another fingerprint."""
    # Every .py file's path, size and time; scandir and slicing, not os.walk and relpath, and
    # __pycache__ skipped: every client computes this, so it is on each warm run's path.
    root = str(_JUDGE_DIR)
    entries, pending = [], [root]
    while pending:
        with os.scandir(pending.pop()) as found:
            for entry in found:
                if entry.name.endswith(".py"):
                    info = entry.stat()
                    entries.append(f"{entry.path[len(root) + 1:]}:{info.st_size}:{info.st_mtime_ns}")
                elif entry.name != "__pycache__" and entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
    text = "\n".join(sorted(entries))
    # A checksum, not a cryptographic hash (hashlib loads OpenSSL, a cost on the client's start):
    # it tells code versions apart, and only this user's processes reach the socket.
    return f"{zlib.crc32(text.encode()):08x}"


def context(problems_dir: str | None, cwd: str) -> dict:
    """The caller's context: the problem set it names and the environment that matters."""
    return {"problems_dir": problems_dir, "cwd": cwd, "env": {k: os.environ.get(k) for k in CONTEXT_ENV}}


def answers(path: Path, timeout_s: float = 1.0) -> bool:
    """True when a server of this user's listens on `path` (a leftover socket file refuses connections)."""
    if not owned_socket(path):
        return False
    probe = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        probe.settimeout(timeout_s)
        probe.connect(str(path))
    except OSError:
        return False
    finally:
        probe.close()
    return True


def exchange(path: Path, message: dict, connect_timeout_s: float = 2.0) -> dict | None:
    """Send `message` to the server on `path` and return its answer; None when no server answers on `path`
    (a broken exchange with one that did is `{"fallback": "broken"}`)."""
    replies = conversation(path, message, connect_timeout_s)
    if replies is None:
        return None
    try:
        return next(replies)
    finally:
        replies.close()


def conversation(path: Path, message: dict, connect_timeout_s: float = 2.0) -> Iterator[dict] | None:
    """Send `message` to the server on `path`; its answers, one by one as they come (a run's report, then the
    refinement of its diagnosis when the first said one is on its way). None when no server answers on
    `path`; a broken exchange ends with `{"fallback": "broken"}` (first) or just ends (later)."""
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    sock.settimeout(connect_timeout_s)
    try:
        sock.connect(str(path))
    except OSError:
        sock.close()
        return None

    def replies() -> Iterator[dict]:
        first = True
        try:
            sock.settimeout(None)  # judging takes as long as the problem's limits allow
            send(sock, message)
            while True:
                reply = _receive_frame(sock)
                if reply is None:
                    if first:
                        yield {"fallback": "broken"}
                    return
                first = False
                yield reply
        except (OSError, ValueError):
            if first:
                yield {"fallback": "broken"}
        finally:
            sock.close()

    return replies()


def reply(sock: _socket.socket, message: dict) -> None:
    """One of the server's answers: a frame (its length, then its bytes); more may follow until it closes."""
    data = marshal.dumps(message, MARSHAL_VERSION)
    sock.sendall(len(data).to_bytes(4, "big") + data)


def _receive_frame(sock: _socket.socket) -> dict | None:
    """The next of the server's answers; None at its end. ValueError when one is malformed or too large."""
    head = _receive_exactly(sock, 4)
    if head is None:
        return None
    size = int.from_bytes(head, "big")
    if size > MAX_MESSAGE:
        raise ValueError(f"message larger than {MAX_MESSAGE} bytes")
    data = _receive_exactly(sock, size)
    if data is None:
        raise ValueError("message cut short")
    try:
        message = marshal.loads(data)
    except (EOFError, TypeError, ValueError) as exc:
        raise ValueError(f"malformed message: {exc}") from None
    if not isinstance(message, dict):
        raise ValueError("message is not a dict")
    return message


def _receive_exactly(sock: _socket.socket, size: int) -> bytes | None:
    """`size` bytes from `sock`, or None when it ends before the first."""
    chunks, got = [], 0
    while got < size:
        chunk = sock.recv(min(1 << 16, size - got))
        if not chunk:
            if got:
                raise ValueError("message cut short")
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def send(sock: _socket.socket, message: dict) -> None:
    sock.sendall(marshal.dumps(message, MARSHAL_VERSION))
    sock.shutdown(_socket.SHUT_WR)


def receive(sock: _socket.socket) -> dict:
    """The peer's whole message; ValueError when it is too large, malformed or not a dict."""
    chunks, size = [], 0
    while True:
        chunk = sock.recv(1 << 16)
        if not chunk:
            break
        size += len(chunk)
        if size > MAX_MESSAGE:
            raise ValueError(f"message larger than {MAX_MESSAGE} bytes")
        chunks.append(chunk)
    try:
        message = marshal.loads(b"".join(chunks))
    except (EOFError, TypeError, ValueError) as exc:
        raise ValueError(f"malformed message: {exc}") from None
    if not isinstance(message, dict):
        raise ValueError("message is not a dict")
    return message
