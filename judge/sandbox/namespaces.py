"""Linux namespaces for the child: its own user, PID, network, IPC and mount views.

- User: the monitor creates one before forking the worker, mapping the judge's
  own uid and gid to 0 inside (as `unshare -r` and bubblewrap do). It is what
  lets an unprivileged judge create the other namespaces; for a root judge it
  also means the child's capabilities never reach beyond its own namespaces.
  A root judge whose kernel refuses user namespaces creates the others directly.
- PID: created with the user namespace, so the worker is PID 1 of a namespace
  in which the judge does not exist (it cannot be seen, signalled or reached
  through /proc/<pid>/root); when the child dies, every process it started dies
  with it.
- Network: a fresh namespace has only a loopback interface that is down.
- IPC: System V shared memory, semaphores and message queues, and POSIX
  message queues, are private to the run and vanish with it.
- Mount: mounts become private; the judge's data (the whole problem set, the
  directory being graded, caches) is covered by empty read-only tmpfs, the
  few trees the child must read (site-packages inside a problem set's .venv,
  the judge package of a source checkout) are bound back read-only, /proc is
  remounted for the new PID namespace, and the scratch directory becomes a
  size-capped tmpfs. A mount namespace alone does not stop a process with
  capabilities from unmounting; the child loses every capability afterwards,
  and Landlock confines its file access.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from judge.sandbox import syscalls

# Covering one of these (or a parent of one) would hide the system the child runs on.
_SYSTEM = tuple(Path(p) for p in ("/usr", "/lib", "/lib64", "/bin", "/etc", "/dev", "/proc", "/sys"))
_FULL_MAP = "0 0 4294967295"


def user_namespaces() -> tuple[bool, str]:
    """Whether this process may create a user namespace: tried in a throwaway child."""
    if not os.path.exists("/proc/self/ns/user"):
        return False, "this kernel has no user namespaces"
    pid = os.fork()
    if pid == 0:
        try:
            syscalls.unshare(syscalls.CLONE_NEWUSER)
            code = 0
        except OSError as exc:
            code = min(exc.errno or 1, 120)
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code == 0:
        return True, "available"
    return False, (f"the kernel refuses unprivileged user namespaces ({os.strerror(code)}; see "
                   "/proc/sys/user/max_user_namespaces, kernel.unprivileged_userns_clone or "
                   "kernel.apparmor_restrict_unprivileged_userns)")


def supported() -> tuple[bool, str]:
    """Cheap (no fork): whether this process could have namespaces at all; the child tries for real."""
    if not os.path.exists("/proc/self/ns/net"):
        return False, "this system has no Linux namespaces"
    return True, "available"


def available() -> tuple[bool, str]:
    """Whether the network, IPC, mount and PID namespaces can be had here."""
    if not os.path.exists("/proc/self/ns/net"):
        return False, "this system has no Linux namespaces"
    if os.geteuid() == 0:
        return True, "available"
    ok, why = user_namespaces()
    if ok:
        return True, "available through a user namespace"
    return False, f"the judge is not root and {why}"


def enter(user: bool, pid: bool) -> None:
    """Called in the monitor (single-threaded), before it forks the worker.

    Failures are not raised: the worker sees what it got (`in_user_namespace`,
    its PID) and reports the layers it lacks.
    """
    uid, gid = os.geteuid(), os.getegid()
    pid_flag = syscalls.CLONE_NEWPID if pid else 0
    if user:
        try:
            syscalls.unshare(syscalls.CLONE_NEWUSER | pid_flag)
        except OSError:
            pass  # a root judge still gets the PID namespace below
        else:
            _map_ids(uid, gid)
            return
    if pid and uid == 0:
        try:
            syscalls.unshare(syscalls.CLONE_NEWPID)
        except OSError:
            pass


def _map_ids(uid: int, gid: int) -> None:
    """Map the judge's uid and gid to 0 in the new namespace (and nothing else)."""
    Path("/proc/self/setgroups").write_text("deny")  # required before an unprivileged gid_map
    Path("/proc/self/uid_map").write_text(f"0 {uid} 1")
    Path("/proc/self/gid_map").write_text(f"0 {gid} 1")


def in_user_namespace() -> bool:
    """True when this process's user namespace is not the initial one (its uid map is not the identity)."""
    try:
        lines = Path("/proc/self/uid_map").read_text().split("\n")
    except OSError:
        return False
    return " ".join(lines[0].split()) != _FULL_MAP


def outside_uid() -> int:
    """The uid this process has outside its user namespace (the first line of its uid map)."""
    if not in_user_namespace():
        return os.geteuid()
    try:
        fields = Path("/proc/self/uid_map").read_text().split()
        return int(fields[1])
    except (OSError, IndexError, ValueError):
        return os.geteuid()


def isolate_network() -> None:
    syscalls.unshare(syscalls.CLONE_NEWNET)


def isolate_ipc() -> None:
    syscalls.unshare(syscalls.CLONE_NEWIPC)


@dataclass(frozen=True)
class Keep:
    """A tree inside a covered directory that stays visible (read-only unless `writable`)."""

    path: Path
    writable: bool = False


def isolate_mounts(protected: tuple[Path, ...], keep: tuple[Keep, ...], own_proc: bool) -> list[str]:
    """Private mounts, `protected` covered by empty read-only tmpfs with `keep` bound back, a fresh /proc.

    Returns what failed.
    """
    syscalls.unshare(syscalls.CLONE_NEWNS)
    syscalls.mount(None, "/", None, syscalls.MS_REC | syscalls.MS_PRIVATE)
    failed = []
    for path in covered(protected):
        try:
            _cover(path, [k for k in keep if inside(k.path, path)])
        except OSError as exc:
            failed.append(f"hiding {path}: {exc.strerror or exc}")
    if own_proc:
        try:
            syscalls.mount("proc", "/proc", "proc", syscalls.MS_NOSUID | syscalls.MS_NODEV | syscalls.MS_NOEXEC)
        except OSError as exc:
            failed.append(f"remounting /proc: {exc.strerror}")
    return failed


def covered(protected: tuple[Path, ...]) -> list[Path]:
    """The directories to cover: existing, not inside another one, and not holding the system's own files."""
    real = sorted({Path(os.path.realpath(p)) for p in protected if os.path.isdir(p)}, key=lambda p: len(p.parts))
    chosen: list[Path] = []
    for path in real:
        if any(inside(path, outer) for outer in chosen):
            continue
        if any(inside(system, path) for system in _SYSTEM):
            continue  # e.g. a submission graded from "/": Landlock alone keeps it unreadable
        chosen.append(path)
    return chosen


def _cover(path: Path, keep: list[Keep]) -> None:
    base = syscalls.MS_NOSUID | syscalls.MS_NODEV | syscalls.MS_NOEXEC
    # Descriptors to the kept trees, taken before the cover hides them.
    handles = []
    try:
        for item in keep:
            if os.path.exists(item.path):
                handles.append((item, os.path.isdir(item.path), os.open(item.path, os.O_PATH | os.O_CLOEXEC)))
        syscalls.mount("tmpfs", str(path), "tmpfs", base, f"size=64k,mode={'755' if handles else '000'}")
        for item, is_dir, fd in handles:
            target = path / Path(os.path.realpath(item.path)).relative_to(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            if is_dir:
                target.mkdir(exist_ok=True)
            else:
                target.touch()
            syscalls.mount(f"/proc/self/fd/{fd}", str(target), None, syscalls.MS_BIND | syscalls.MS_REC)
            if not item.writable:
                syscalls.mount(None, str(target), None, syscalls.MS_REMOUNT | syscalls.MS_BIND | syscalls.MS_RDONLY
                               | _locked_flags(str(target)))
    finally:
        for _, _, fd in handles:
            os.close(fd)
    syscalls.mount(None, str(path), None, syscalls.MS_REMOUNT | syscalls.MS_RDONLY | base,
                   f"size=64k,mode={'755' if handles else '000'}")


def _locked_flags(path: str) -> int:
    """The flags a remount must keep: in a user namespace, dropping an inherited one is refused."""
    flags = os.statvfs(path).f_flag
    result = 0
    for st, ms in ((os.ST_NOSUID, syscalls.MS_NOSUID), (os.ST_NODEV, syscalls.MS_NODEV),
                   (os.ST_NOEXEC, syscalls.MS_NOEXEC), (os.ST_NOATIME, syscalls.MS_NOATIME),
                   (os.ST_NODIRATIME, syscalls.MS_NODIRATIME), (os.ST_RELATIME, syscalls.MS_RELATIME)):
        if flags & st:
            result |= ms
    return result


def cap_scratch(scratch: Path, size_mb: int, files: int) -> None:
    """Make the scratch directory a tmpfs of `size_mb` and `files` inodes: it bounds what all files
    together may take (RLIMIT_FSIZE bounds one file only; an inode costs kernel memory even when
    empty) and vanishes with the mount namespace."""
    syscalls.mount("tmpfs", str(scratch), "tmpfs", syscalls.MS_NOSUID | syscalls.MS_NODEV,
                   f"size={size_mb}m,nr_inodes={files},mode=700")


def inside(child: Path, parent: Path) -> bool:
    """Whether `child` is `parent` or below it, symbolic links resolved."""
    try:
        Path(os.path.realpath(child)).relative_to(os.path.realpath(parent))
        return True
    except ValueError:
        return False
