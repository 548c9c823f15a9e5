"""Starting a warm judge in the background, and waiting for it; standard library only.

The first `judge run` (and `--watch`, a notebook's first check, `judge serve
--background`) starts the warm judge of its key (judge.warm.protocol) unless
one holds the key's lock. The process started is `judge.warm.daemon` in a
session of its own, with nothing of the caller's open files: its standard
input and output are /dev/null (so `judge run | cat` ends when the run does)
and its standard error is its log beside the socket. It takes the lock, forks
and its first process exits at once, so the caller reaps that one here and the
warm judge is never a child left to it (a notebook's kernel, a watch).

Whether it is starting or serving is the lock: held while it lives, released by
the kernel however it ends, so a judge that could not start is seen at once.
"""
from __future__ import annotations

import fcntl
import os
import sys
import time
from pathlib import Path

from judge.warm import protocol

# The warm judge imports torch in its fork server before it listens, which is slow on a busy machine.
START_WAIT_S = 60.0
POLL_S = 0.01

_JUDGE_PARENT = str(Path(__file__).resolve().parent.parent.parent)
# The caller's module path, not its working directory's files: a learner's judge.py stays theirs.
_BOOTSTRAP = ("import sys; n = int(sys.argv[1]); sys.path[:] = sys.argv[2:2 + n]; "
              "from judge.warm.daemon import main; main(sys.argv[2 + n:])")


def off() -> bool:
    """`JUDGE_NO_WARM=1`: no warm judge is used or started unasked."""
    return os.environ.get("JUDGE_NO_WARM", "") not in ("", "0")


def held(key: str) -> bool:
    """Whether a warm judge holds the lock of `key`: one is starting or serving."""
    try:
        fd = os.open(protocol.lock_path(key), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # closing releases a lock taken here
    return False


def start(problems_dir: str | None, key: str, *, idle_timeout_s: float | None = None,
          announce: bool = False) -> bool:
    """Start the warm judge of `key` unless one is starting or serving; whether one is now.

    Returns once the new judge holds its lock, not when it is ready. Callers that start one unasked
    check `off()` first; with `announce` (`judge run`), a judge started here is said in one line on
    stderr (`started_note`), so a learner knows what keeps running after the run and how to stop it.
    """
    if protocol.private_dir(create=True) is None:
        return False
    if held(key):
        return True
    paths = [_JUDGE_PARENT, *(p for p in sys.path if p and os.path.isabs(p) and p != _JUDGE_PARENT)]
    argv = [sys.executable, "-c", _BOOTSTRAP, str(len(paths)), *paths, "--key", key]
    if problems_dir:
        argv += ["--problems-dir", problems_dir]
    if idle_timeout_s is not None:
        argv += ["--idle-timeout", f"{idle_timeout_s:g}"]
    log = str(protocol.log_path(key))
    actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)]
    try:
        pid = os.posix_spawn(sys.executable, argv, os.environ, file_actions=actions, setsid=True)
        os.waitpid(pid, 0)  # the first process leaves once the judge holds its lock
    except OSError:
        return False
    if not held(key):
        return False
    if announce:
        from judge.warm.daemon import idle_timeout

        sys.stderr.write(started_note(idle_timeout(idle_timeout_s)) + "\n")
        sys.stderr.flush()
    return True


def started_note(idle_s: float) -> str:
    """The one line that says a warm judge was started: what it is, when it leaves, how to stop it."""
    return (f"note: started the warm judge in the background (it keeps torch imported, so later runs are fast); "
            f"it stops by itself after {idle_words(idle_s)} idle, or now with `judge serve --stop`")


def idle_words(seconds: float) -> str:
    """`seconds` as a learner reads a timeout: in minutes from one minute on, else in seconds."""
    if seconds >= 60:
        minutes = seconds / 60
        return f"{minutes:.3g} minute" + ("" if minutes == 1 else "s")
    return f"{seconds:.3g} second" + ("" if seconds == 1 else "s")


def wait_ready(key: str, deadline_s: float = START_WAIT_S) -> bool:
    """Wait until the warm judge of `key` listens; False when it left without listening, or at the deadline."""
    path = protocol.socket_path(key)
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if protocol.answers(path, timeout_s=0.2):
            return True
        if not held(key):  # it could not start (its log says why); a last look, in case it just did
            return protocol.answers(path, timeout_s=0.2)
        time.sleep(POLL_S)
    return False
