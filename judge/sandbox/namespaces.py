"""Linux namespaces for the child: its own user, PID, network, IPC and mount views, and a root of its own.

- User: for an unprivileged judge the monitor creates one before forking the
  worker, mapping the judge's own uid and gid to 0 inside (as `unshare -r` and
  bubblewrap do): it is what lets a normal user create the other namespaces.
  A root judge needs none: it creates the namespaces itself and then runs the
  child as an id of its own that owns no file (`become`, as isolate's box users).
- PID: created before the worker is forked, so the worker is PID 1 of a
  namespace in which the judge does not exist; when it dies, every process it
  started dies with it.
- Network: a fresh namespace has only a loopback interface that is down.
- IPC: System V and POSIX IPC objects are private to the run and vanish with it.
- Mount: the child gets a new root (`enter_root`, pivot_root as bubblewrap and
  nsjail do): an empty tmpfs holding read-only binds of exactly the trees it
  reads (its interpreter and standard library, site-packages, the judge
  package, system libraries), /dev/null, /dev/zero and /dev/urandom, a /proc of
  its own PID namespace and its size-capped tmpfs working directory. Nothing
  else of the host exists there, and a read-only mount refuses metadata
  changes (chmod, utime, xattrs, inode flags) as well as writes. The child
  loses every capability afterwards, so it cannot unmount or remount anything.
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


def privileged() -> bool:
    """Whether this process is the real root with the capabilities to build the child's world itself
    (to mount, and to change ids): then no user namespace is needed, and the child gets an id of its own."""
    if os.geteuid() != 0 or in_user_namespace():
        return False
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("CapEff:"):
                caps = int(line.split()[1], 16)
                return all(caps >> bit & 1 for bit in (_CAP_SETUID, _CAP_SETGID, _CAP_SYS_ADMIN, _CAP_SETPCAP))
    except (OSError, ValueError, IndexError):
        pass
    return False


_CAP_SETGID, _CAP_SETUID, _CAP_SETPCAP, _CAP_SYS_ADMIN = 6, 7, 8, 21


def enter(user: bool, pid: bool, direct: bool = False) -> None:
    """Called in the monitor (single-threaded), before it forks the worker.

    `direct`: a privileged judge (`privileged`) whose child will run as CHILD_ID creates the PID
    namespace itself and no user namespace. Failures are not raised: the worker sees what it got
    (`in_user_namespace`, its PID) and reports the layers it lacks.
    """
    uid, gid = os.geteuid(), os.getegid()
    pid_flag = syscalls.CLONE_NEWPID if pid else 0
    if direct:
        try:
            if pid_flag:
                syscalls.unshare(pid_flag)
            return
        except OSError:
            pass  # a user namespace may still give it
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


# The id a root judge's child runs as: owns no file (far above the ranges systems hand out, below the
# ranges systemd leaves to containers' own maps), so a chmod, utime or xattr on a host file is refused.
CHILD_ID = 1_999_000_000

# Device nodes the child may open; everything else of /dev does not exist in its root.
_DEVICES = ("null", "zero", "urandom", "random", "full")


@dataclass(frozen=True)
class Root:
    """What the child's new root holds (`enter_root`)."""

    trees: tuple[Path, ...]        # bound read-only at their own paths (directories or single files)
    scratch: Path                  # the working directory: a tmpfs of its own at this path
    scratch_mb: int
    scratch_files: int
    own_proc: bool                 # a /proc of the child's PID namespace (else the host's, read-only)
    owner: tuple[int, int] | None = None   # uid and gid owning the working directory (a root judge's child)


def enter_root(root: Root) -> None:
    """Make a private mount namespace whose root holds only what `root` names, and move into it.

    Built on a tmpfs mounted over the (empty) scratch directory of this namespace, then
    pivot_root(".", ".") with the old root detached, as pivot_root(2) describes.
    """
    syscalls.unshare(syscalls.CLONE_NEWNS)
    syscalls.mount(None, "/", None, syscalls.MS_REC | syscalls.MS_PRIVATE)
    base = syscalls.MS_NOSUID | syscalls.MS_NODEV
    new = str(root.scratch)
    syscalls.mount("tmpfs", new, "tmpfs", base, "size=1m,nr_inodes=4096,mode=755")
    bound: list[Path] = []
    for tree in sorted(root.trees, key=lambda t: len(Path(os.path.realpath(t)).parts)):
        real = _mirror(new, tree)
        if real is None or any(inside_resolved(real, outer) for outer in bound):
            continue
        _bind(new, real)
        bound.append(real)
    _devices(new)
    _proc(new, root.own_proc)
    scratch = _target(new, _mirror(new, root.scratch) or Path(os.path.realpath(root.scratch)), directory=True)
    owner = f",uid={root.owner[0]},gid={root.owner[1]}" if root.owner else ""
    syscalls.mount("tmpfs", scratch, "tmpfs", base,
                   f"size={root.scratch_mb}m,nr_inodes={root.scratch_files},mode=700{owner}")
    syscalls.mount(None, new, None, syscalls.MS_REMOUNT | syscalls.MS_RDONLY | base,
                   "size=1m,nr_inodes=4096,mode=755")
    os.chdir(new)
    syscalls.pivot_root(".", ".")
    syscalls.umount2(".", syscalls.MNT_DETACH)
    os.chdir("/")


def _mirror(new: str, path: Path, depth: int = 0) -> Path | None:
    """Recreate in the new root the symbolic links on the way to `path`; return its real path (or None)."""
    if depth > 16 or not os.path.lexists(path):
        return None
    current = Path("/")
    for part in path.parts[1:]:
        candidate = current / part
        if os.path.islink(candidate):
            link = os.readlink(candidate)
            mirror = Path(new + str(candidate))
            if not os.path.lexists(mirror):
                mirror.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(link, mirror)
            resolved = _mirror(new, Path(os.path.normpath(candidate.parent / link)), depth + 1)
            if resolved is None:
                return None
            current = resolved
        else:
            current = candidate
    return current


def _target(new: str, real: Path, directory: bool) -> str:
    target = Path(new + str(real))
    target.parent.mkdir(parents=True, exist_ok=True)
    if directory:
        target.mkdir(exist_ok=True)
    elif not target.exists():
        target.touch()
    return str(target)


def _bind(new: str, real: Path) -> None:
    """Bind `real` read-only at its own path in the new root."""
    target = _target(new, real, directory=os.path.isdir(real))
    try:
        syscalls.mount(str(real), target, None, syscalls.MS_BIND)
    except OSError:
        # A tree with mounts below it, in a user namespace: only the recursive bind is allowed (the mounts
        # below keep their own flags; seccomp still refuses every metadata call on them).
        syscalls.mount(str(real), target, None, syscalls.MS_BIND | syscalls.MS_REC)
    syscalls.mount(None, target, None, syscalls.MS_REMOUNT | syscalls.MS_BIND | syscalls.MS_RDONLY
                   | syscalls.MS_NOSUID | _locked_flags(target))


def _devices(new: str) -> None:
    for name in _DEVICES:
        device = Path("/dev") / name
        if os.path.exists(device):
            target = _target(new, device, directory=False)
            syscalls.mount(str(device), target, None, syscalls.MS_BIND)
            # Read-only still lets the device be read and written; it refuses changing its times.
            syscalls.mount(None, target, None, syscalls.MS_REMOUNT | syscalls.MS_BIND | syscalls.MS_RDONLY
                           | syscalls.MS_NOSUID | syscalls.MS_NOEXEC | _locked_flags(target))
    for name, link in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                       ("stderr", "/proc/self/fd/2")):
        os.symlink(link, new + "/dev/" + name)


def _proc(new: str, own: bool) -> None:
    target = _target(new, Path("/proc"), directory=True)
    if own:
        syscalls.mount("proc", target, "proc", syscalls.MS_NOSUID | syscalls.MS_NODEV | syscalls.MS_NOEXEC)
        return
    # No PID namespace: the host's /proc, read-only; Landlock keeps the child to its own entries.
    syscalls.mount("/proc", target, None, syscalls.MS_BIND | syscalls.MS_REC)
    syscalls.mount(None, target, None, syscalls.MS_REMOUNT | syscalls.MS_BIND | syscalls.MS_RDONLY
                   | _locked_flags(target))


def become(uid: int, gid: int) -> None:
    """Run as `uid` and `gid` from now on, with no supplementary groups: every capability goes with root.

    The bounding set is emptied first, while the capability to do so is still held."""
    syscalls.drop_bounding_set()
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    # A change of uid makes the process undumpable: its /proc/self entries would be root's, and the
    # child could not read its own /proc/self/mem or list /proc/self/fd as honest code may. Other runs
    # sharing the id cannot reach it anyway (their own PID namespaces; ptrace denied; Landlock's scope).
    syscalls.prctl(syscalls.PR_SET_DUMPABLE, 1)


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


def inside(child: Path, parent: Path) -> bool:
    """Whether `child` is `parent` or below it, symbolic links resolved."""
    try:
        Path(os.path.realpath(child)).relative_to(os.path.realpath(parent))
        return True
    except ValueError:
        return False


def inside_resolved(child: Path, parent: Path) -> bool:
    """`inside` for paths resolved already."""
    return child == parent or parent in child.parents
