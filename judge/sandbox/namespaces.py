"""Linux namespaces for the child: its own PID, network and mount views.

- PID: the monitor unshares it before forking, so the child is PID 1 of a
  namespace in which the judge does not exist (it cannot be seen, signalled or
  reached through /proc/<pid>/root); when the child dies, every process it
  started dies with it.
- Network: a fresh namespace has only a loopback interface that is down.
- Mount: mounts become private, the judge's data directories are covered by
  empty read-only tmpfs, and /proc is remounted for the new PID namespace.
  A mount namespace alone does not stop root from unmounting; the child also
  loses every capability afterwards, and Landlock confines its file access.
"""
from __future__ import annotations

import os
from pathlib import Path

from judge.sandbox import syscalls


def available() -> tuple[bool, str]:
    if not os.path.exists("/proc/self/ns/net"):
        return False, "this system has no Linux namespaces"
    if os.geteuid() != 0:
        return False, "namespaces need root (the judge runs as an unprivileged user)"
    return True, "available"


def enter_pid_namespace() -> None:
    """Called in the monitor: its next child becomes PID 1 of a new namespace."""
    syscalls.unshare(syscalls.CLONE_NEWPID)


def isolate_network() -> None:
    syscalls.unshare(syscalls.CLONE_NEWNET)


def isolate_mounts(protected: tuple[Path, ...], own_proc: bool, scratch: Path, scratch_mb: int) -> list[str]:
    """Private mounts, empty tmpfs over `protected`, a size-capped scratch, a fresh /proc.

    Returns what failed. The scratch tmpfs bounds the total a submission can
    write (RLIMIT_FSIZE bounds one file only) and vanishes with the namespace.
    """
    syscalls.unshare(syscalls.CLONE_NEWNS)
    syscalls.mount(None, "/", None, syscalls.MS_REC | syscalls.MS_PRIVATE)
    failed = []
    try:
        syscalls.mount("tmpfs", str(scratch), "tmpfs", syscalls.MS_NOSUID | syscalls.MS_NODEV,
                       f"size={scratch_mb}m,mode=700")
    except OSError as exc:
        failed.append(f"capping the scratch directory: {exc.strerror}")
    flags = syscalls.MS_RDONLY | syscalls.MS_NOSUID | syscalls.MS_NODEV | syscalls.MS_NOEXEC
    for path in protected:
        if not path.is_dir():
            continue
        try:
            syscalls.mount("tmpfs", str(path), "tmpfs", flags, "size=4k,mode=000")
        except OSError as exc:
            failed.append(f"hiding {path}: {exc.strerror}")
    if own_proc:
        try:
            syscalls.mount("proc", "/proc", "proc", syscalls.MS_NOSUID | syscalls.MS_NODEV | syscalls.MS_NOEXEC)
        except OSError as exc:
            failed.append(f"remounting /proc: {exc.strerror}")
    return failed
