"""Isolation layers applied inside the sandbox child, and what this machine supports.

Each layer is small and independent: it knows whether the machine can provide
it (`probe`, used by `judge doctor` and the one-time warning) and how to apply
it in the child before the submission's code is loaded. `apply_all` fixes the
order: layers that need privileges come first (control groups, namespaces, the
new root), the child's identity and capabilities go next, then Landlock and
seccomp close the door.

The child sees a root of its own: read-only binds of what it imports, its
devices, its /proc and its tmpfs working directory (judge.sandbox.namespaces).
A root judge then runs it as an id that owns no file, so no metadata of a host
file is its to change; a normal user's judge can give it no other id (the
kernel maps only the judge's own), and there the read-only root refuses the
same changes. The same layers apply to a root and to an unprivileged judge:
the namespaces come from a user namespace where the judge is not root.
"""
from __future__ import annotations

import functools
import os
import resource
import site
import socket
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from judge.runs.contract import Limits
from judge.sandbox import DISABLE_ENV, cgroups, landlock, memory, namespaces, seccomp, syscalls


@dataclass(frozen=True)
class LayerStatus:
    name: str
    active: bool
    detail: str


@dataclass
class ChildContext:
    """What the layers need to know inside the child."""

    limits: Limits
    scratch: Path
    keep_fds: tuple[int, ...]
    protected: tuple[Path, ...] = ()      # the judge's data: the problem set, the graded directory, caches
    calls: int = 1                        # calls this child will run (scales the CPU-time backstop)
    disabled: tuple[str, ...] = ()        # layers switched off on purpose (tests, debugging)
    group: cgroups.RunGroup | None = None  # the run's cgroups, made by its monitor
    monitor: socket.socket | None = None   # to the run's monitor, which measures memory (judge.sandbox.memory)
    memory_by_group: bool = False          # a memory cgroup counts every page (else memfd is denied)
    readable: tuple[Path, ...] = ()       # trees the child may read (set by apply_all)
    active: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Layer:
    name: str
    blocks: str
    probe: Callable[[], tuple[bool, str]]   # cheap (it runs in every child): no fork, no subprocess
    apply: Callable[[ChildContext], None]
    lost: str = ""                          # what a submission could do without this layer...
    also: tuple[str, ...] = ()              # ...unless one of these layers, which stop the same, is active


def _always() -> tuple[bool, str]:
    return True, "available"


def _linux_only() -> tuple[bool, str]:
    return (True, "available") if sys.platform.startswith("linux") else (False, "needs Linux")


# ------------------------------------------------------------------ layers

def _apply_user(ctx: ChildContext) -> None:
    if namespaces.in_user_namespace() or _own_identity_planned(ctx):
        return  # a privileged judge builds the child's world itself and needs none
    raise OSError(1, "the kernel refused to create a user namespace")


def _probe_user() -> tuple[bool, str]:
    ok, why = namespaces.supported()
    if ok and namespaces.privileged():
        return True, "not needed: a root judge creates the namespaces itself and runs the child as an id of its own"
    return ok, why


def _own_identity_planned(ctx: ChildContext) -> bool:
    return "own identity" not in ctx.disabled and namespaces.privileged()


def _namespaces_possible(ctx: ChildContext) -> None:
    """Namespaces need root: the real one, or uid 0 of the user namespace (with its capabilities)."""
    if os.geteuid() != 0:
        raise OSError(1, "the judge is not root and has no user namespace")


def _apply_pid(ctx: ChildContext) -> None:
    if os.getpid() != 1:  # the monitor could not create the namespace
        _namespaces_possible(ctx)
        raise OSError(1, "the monitor could not create a PID namespace")


def _apply_env(ctx: ChildContext) -> None:
    os.environ.clear()
    os.environ.update({"PATH": "/usr/bin:/bin", "HOME": str(ctx.scratch), "TMPDIR": str(ctx.scratch),
                       "LANG": "C.UTF-8", "OMP_NUM_THREADS": str(ctx.limits.threads),
                       # torch.compile runs the function as written: compiling starts compiler processes
                       # (which seccomp forbids) and would spend the call's time limit; the values are the same.
                       "TORCHDYNAMO_DISABLE": "1"})
    _wipe_initial_environment()


def _wipe_initial_environment() -> None:
    """Zero the environment block inherited from the judge (/proc/self/environ reads it)."""
    with open("/proc/self/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    # Fields 50 and 51 of stat (1-based) are env_start and env_end; index from after "(comm)".
    env_start, env_end = int(fields[47]), int(fields[48])
    if 0 < env_start < env_end:
        syscalls.wipe_memory(env_start, env_end - env_start)


def _apply_fds(ctx: ChildContext) -> None:
    keep = sorted({0, 1, 2, *ctx.keep_fds})
    low = 0
    for fd in keep:
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, _max_fd())


def _max_fd() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 65536


def _apply_network(ctx: ChildContext) -> None:
    _namespaces_possible(ctx)
    namespaces.isolate_network()


def _apply_ipc(ctx: ChildContext) -> None:
    _namespaces_possible(ctx)
    namespaces.isolate_ipc()


def _apply_memory_group(ctx: ChildContext) -> None:
    group = ctx.group
    if group is None or "memory" not in group.paths or "memory accounting" in ctx.disabled:
        # No group counts what the address space misses: seccomp denies memfd_create instead (and
        # apply_all reports this layer missing unless seccomp and the scratch size limit are active).
        ctx.memory_by_group = False
        return
    group.join("memory")
    # What the run may hold in any form: its memory limit plus its scratch files (a tmpfs).
    group.limit_memory((ctx.limits.memory_mb + ctx.limits.scratch_mb) << 20)
    ctx.memory_by_group = True


def _probe_memory_group() -> tuple[bool, str]:
    ok, why = cgroups.probe()
    if ok:
        return ok, why
    return True, (f"no memory cgroup ({why}): memfd_create is denied, /dev/shm is not writable and the "
                  "scratch tmpfs caps its files' pages, so a run holds at most its memory limit plus its scratch size")


def _apply_tasks(ctx: ChildContext) -> None:
    group = ctx.group
    if group is not None and "pids" in group.paths:
        group.join("pids")
        group.limit_tasks(ctx.limits.tasks)
        return
    # RLIMIT_NPROC counts the tasks of one user in one user namespace: in the run's own namespace,
    # only its own (the monitor's among them). The kernel exempts the real root, whatever the namespace.
    if not namespaces.in_user_namespace():
        raise OSError(1, "no pids cgroup, and RLIMIT_NPROC outside a user namespace counts all of the judge "
                         "user's processes")
    if namespaces.outside_uid() == 0:
        raise OSError(1, "no pids cgroup, and the kernel exempts root from RLIMIT_NPROC")
    resource.setrlimit(resource.RLIMIT_NPROC, (ctx.limits.tasks + 1, ctx.limits.tasks + 1))


def _probe_tasks() -> tuple[bool, str]:
    ok, why = cgroups.probe_tasks()
    if ok:
        return ok, f"at most {Limits().tasks} processes and threads ({why})"
    if namespaces.outside_uid() == 0:
        return False, f"{why}; the kernel exempts root from RLIMIT_NPROC"
    return True, f"at most {Limits().tasks} processes and threads (RLIMIT_NPROC in the run's user namespace)"


def _apply_mounts(ctx: ChildContext) -> None:
    _namespaces_possible(ctx)
    owner = (namespaces.CHILD_ID, namespaces.CHILD_ID) if _own_identity_planned(ctx) else None
    trees = tuple(p for p in ctx.readable if not namespaces.inside_resolved(Path(p), Path("/proc")))
    namespaces.enter_root(namespaces.Root(trees=trees, scratch=ctx.scratch, scratch_mb=ctx.limits.scratch_mb,
                                          scratch_files=ctx.limits.scratch_files, own_proc=os.getpid() == 1,
                                          owner=owner))


def _apply_scratch_size(ctx: ChildContext) -> None:
    if "mount namespace" not in ctx.active:  # the new root's working directory is the capped tmpfs
        raise OSError(1, "needs the mount namespace")


def _probe_scratch_size() -> tuple[bool, str]:
    ok, why = namespaces.supported()
    if not ok:
        return False, why
    return True, f"a tmpfs caps all files together at {Limits().scratch_mb} MiB and {Limits().scratch_files} " \
                 f"files (each file: {Limits().file_bytes >> 20} MiB)"


def _apply_identity(ctx: ChildContext) -> None:
    if not namespaces.privileged():
        # A normal user's kernel maps the child to the judge's own uid and no other: what that uid
        # owns must then not exist for the child, which only its own root guarantees.
        if "mount namespace" not in ctx.active:
            raise OSError(1, "a normal user's judge can map its child to its own uid only, and the child has "
                             "no root of its own here")
        return
    if "mount namespace" not in ctx.active:  # no tmpfs of the child's own: the directory itself becomes its
        os.chown(ctx.scratch, namespaces.CHILD_ID, namespaces.CHILD_ID)
    namespaces.become(namespaces.CHILD_ID, namespaces.CHILD_ID)


def _probe_identity() -> tuple[bool, str]:
    if not sys.platform.startswith("linux"):
        return False, "needs Linux"
    if namespaces.in_user_namespace() or not namespaces.privileged():
        return True, ("the judge's own uid (a normal user's kernel maps no other), none of whose files exists in "
                      "the child's read-only root")
    return True, f"uid and gid {namespaces.CHILD_ID}, which own no file: no host file's mode, times or " \
                 "attributes are the child's to change"


def _apply_scratch(ctx: ChildContext) -> None:
    # No working directory is importable: the server's sys.path holds absolute entries only
    # (see launch.py), so changing directory changes nothing for imports.
    os.chdir(ctx.scratch)


def _address_space_now() -> int:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[0])
    return pages * os.sysconf("SC_PAGE_SIZE")


def _apply_rlimits(ctx: ChildContext) -> None:
    limits = ctx.limits
    memory = _address_space_now() + limits.memory_mb * (1 << 20)
    # A backstop only: the judge's wall clock per call is the real limit.
    cpu = int(limits.import_time_s + limits.time_s * max(1, ctx.calls) * max(1, limits.threads)) + 1
    for which, value in ((resource.RLIMIT_AS, memory),
                         (resource.RLIMIT_CPU, cpu),
                         (resource.RLIMIT_FSIZE, limits.file_bytes),
                         (resource.RLIMIT_CORE, 0),
                         (resource.RLIMIT_NOFILE, limits.open_files)):
        resource.setrlimit(which, (value, value))


def _probe_rlimits() -> tuple[bool, str]:
    if not hasattr(resource, "RLIMIT_AS"):
        return False, "this platform has no RLIMIT_AS: memory is limited by time only"
    return True, "address space, CPU time, file size, open files"


def _probe_capabilities() -> tuple[bool, str]:
    if not sys.platform.startswith("linux"):
        return False, "needs Linux"
    return True, "every capability dropped (no mount, ptrace or permission override)"


def _apply_capabilities(ctx: ChildContext) -> None:
    syscalls.drop_capabilities()
    syscalls.no_new_privs()


def _probe_landlock() -> tuple[bool, str]:
    abi = landlock.abi_version()
    if abi < 1:
        return False, "Landlock is not enabled in this kernel: file access is confined by the mount namespace only"
    extra = "" if abi >= 6 else " (ABI < 6: signals are not scoped)"
    return True, (f"ABI {abi}: reads only the standard library, site-packages, the judge package and system "
                  f"libraries; writes only the scratch directory{extra}")


# System trees every Python process reads from: shared libraries, time zones, CPU facts.
_SYSTEM_READABLE = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/share/zoneinfo", "/etc/ld.so.cache",
                    "/etc/localtime", "/proc/self", "/proc/cpuinfo", "/proc/meminfo", "/sys/devices/system/cpu")


def readable_paths(protected: tuple[Path, ...]) -> list[Path]:
    """Trees the child may read: the standard library, site-packages, the judge package, system libraries.

    Nothing else: not the judge's `sys.path` (it holds the working directory under
    `python -m`, and whatever $PYTHONPATH names), not the Python prefix as a whole.
    A tree that contains judge data (a protected directory) is never readable.
    """
    # Each protected directory resolved once, each tree once per process (_resolved_trees): a child
    # resolved every pair, 150 realpath calls and 1.7 ms of its set-up.
    resolved = [Path(os.path.realpath(p)) for p in protected]
    return [path for path, real in _resolved_trees() if not any(_below(p, real) for p in resolved)]


def _below(child: Path, parent: Path) -> bool:
    """`namespaces.inside` for paths resolved already."""
    return child == parent or parent in child.parents


@functools.cache
def _resolved_trees() -> tuple[tuple[Path, Path], ...]:
    return tuple((path, Path(os.path.realpath(path))) for path in _install_trees())


@functools.cache
def _install_trees() -> tuple[Path, ...]:
    """The trees `readable_paths` starts from, those that exist; found once per process (the zygote
    finds them before it forks, so a child does not stat and resolve them again)."""
    import judge

    paths = sysconfig.get_paths()
    candidates = {paths["stdlib"], paths["platstdlib"], paths["purelib"], paths["platlib"],
                  *site.getsitepackages(), str(Path(judge.__file__).resolve().parent), *_SYSTEM_READABLE}
    if site.ENABLE_USER_SITE and site.getusersitepackages() in sys.path:
        candidates.add(site.getusersitepackages())
    if sysconfig.get_config_var("Py_ENABLE_SHARED"):  # libpython, for extensions that dlopen it again
        candidates.add(os.path.join(sysconfig.get_config_var("LIBDIR") or "/",
                                    sysconfig.get_config_var("LDLIBRARY") or ""))
    return tuple(Path(c) for c in sorted(candidates) if Path(c).exists())


def _apply_landlock(ctx: ChildContext) -> None:
    read = list(ctx.readable)
    if os.getpid() == 1:
        read.append(Path("/proc"))  # our own /proc shows only the sandbox's processes
    landlock.restrict(read, [ctx.scratch], [Path("/dev/null"), Path("/dev/zero"), Path("/dev/urandom")])


def _apply_memory_measurement(ctx: ChildContext) -> None:
    if ctx.monitor is None:
        raise OSError(1, "no monitor to hand the listener to")
    listener = memory.install()
    try:
        socket.send_fds(ctx.monitor, [b"L"], [listener])
    finally:
        os.close(listener)


def _apply_seccomp(ctx: ChildContext) -> None:
    # Without a memory cgroup, nothing would count a memfd's pages that are never mapped.
    seccomp.install(deny_memfd=not ctx.memory_by_group)


LAYERS: tuple[Layer, ...] = (
    Layer("process group", "children outliving the time limit (the whole group is killed)", _always,
          lambda ctx: None, "leave processes running"),
    Layer("user namespace", "capabilities beyond the child's own namespaces; it gives an unprivileged judge "
          "the namespaces below", _probe_user, _apply_user,
          ""),
    Layer("pid namespace", "seeing, signalling or tracing the judge; leftover processes",
          namespaces.supported, _apply_pid, "see the judge's processes", ("landlock",)),
    Layer("memory accounting", "memory held outside the address space (memfd, tmpfs pages) beyond the memory "
          "limit", _probe_memory_group, _apply_memory_group, "hold memory in memfd pages beyond its limit"),
    Layer("task limit", "exhausting the machine's processes and threads", _probe_tasks, _apply_tasks,
          "start threads until the machine runs out of PIDs"),
    Layer("clean environment", "reading the judge's environment variables", _linux_only, _apply_env,
          "read the judge's environment"),
    Layer("closed descriptors", "reaching the judge through inherited files", _always, _apply_fds,
          "use the judge's open files"),
    Layer("network namespace", "all network access, loopback included", namespaces.supported, _apply_network,
          "use the network", ("seccomp",)),
    Layer("ipc namespace", "System V shared memory, semaphores and message queues, POSIX message queues "
          "shared with the machine and with other submissions", namespaces.supported, _apply_ipc,
          "leave shared memory behind and talk to other submissions", ("seccomp",)),
    Layer("mount namespace", "seeing any host file beyond what it imports (the problem set, the graded directory, "
          "caches, /tmp, home directories), changing the metadata of what it imports (a read-only root of its own); "
          "the judge's /proc", namespaces.supported, _apply_mounts,
          "see the problem set's files", ("landlock",)),
    Layer("scratch size limit", "filling the disk (many files of the per-file limit)", _probe_scratch_size,
          _apply_scratch_size, "fill the disk"),
    Layer("scratch directory", "writing into the judge's working directory", _always, _apply_scratch,
          "write in the judge's working directory"),
    Layer("resource limits", "memory, CPU-time, file-size and open-file bombs", _probe_rlimits, _apply_rlimits,
          "exhaust memory or CPU"),
    Layer("own identity", "changing the mode, times or attributes of host files its user would own (the "
          "judge's files; for a root judge, the system's)", _probe_identity, _apply_identity,
          "change the metadata of the judge user's files", ("mount namespace",)),
    Layer("no capabilities", "unmounting, tracing, overriding file permissions", _probe_capabilities,
          _apply_capabilities, "unmount and override permissions", ("seccomp",)),
    Layer("landlock", "reading or writing files outside the allowed trees; TCP; signals", _probe_landlock,
          _apply_landlock, "read and write any file its user can"),
    Layer("memory measurement", "a MemoryError raised without running out of memory counting as "
          "memory_limit_exceeded (the run's monitor sees large requests for address space and the peak)",
          memory.supported, _apply_memory_measurement, "have a single allocation far over its limit read as the "
          "error it raised rather than memory_limit_exceeded"),
    Layer("seccomp", "starting programs or processes, sockets, ptrace, mounts, namespaces, System V IPC, file "
          "locks and leases, changing a file's mode, owner, times, extended attributes or inode flags, inotify "
          "and fanotify watches, system calls newer than its tables (and memfd where no memory cgroup counts it)",
          seccomp.supported, _apply_seccomp, "start programs and open sockets"),
)


def exposure(failed: list[str]) -> str:
    """One short line: which layers are missing and what a submission could then do.

    A missing layer costs nothing when another active layer stops the same thing
    (no network namespace, but seccomp denies every socket).
    """
    names = [f.split(":", 1)[0] for f in failed]
    lost = [layer.lost for layer in LAYERS
            if layer.name in names and layer.lost and all(other in names for other in layer.also)]
    could = f"a submission could {', '.join(lost)}" if lost else "other layers stop what they would"
    return f"weaker isolation ({', '.join(names)} missing): {could}; see `judge doctor`"


def apply_all(ctx: ChildContext) -> None:
    """Apply every layer the machine supports; record which are active and which failed."""
    ctx.readable = tuple(readable_paths(ctx.protected))
    for layer in LAYERS:
        ok, why = layer.probe()
        if layer.name in ctx.disabled:
            ok, why = False, f"disabled by {DISABLE_ENV}"
        if not ok:
            ctx.failed.append(f"{layer.name}: {why}")
            continue
        try:
            layer.apply(ctx)
        except OSError as exc:
            ctx.failed.append(f"{layer.name}: {exc.strerror or exc}")
        else:
            ctx.active.append(layer.name)
    if "memory accounting" in ctx.active and not ctx.memory_by_group \
            and not {"seccomp", "scratch size limit"} <= set(ctx.active):
        ctx.active.remove("memory accounting")
        ctx.failed.append("memory accounting: no memory cgroup, and without seccomp and the scratch size limit "
                          "memfd and tmpfs pages are not counted")


def disabled_from_env(environ: dict | None = None) -> tuple[str, ...]:
    """Layers named in $JUDGE_SANDBOX_DISABLE (comma-separated); unknown names are an error."""
    raw = (environ if environ is not None else os.environ).get(DISABLE_ENV, "")
    names = tuple(n.strip() for n in raw.split(",") if n.strip())
    known = {layer.name for layer in LAYERS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"{DISABLE_ENV}: unknown layer(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return names


_NAMESPACE_LAYERS = ("user namespace", "pid namespace", "network namespace", "ipc namespace", "mount namespace",
                     "scratch size limit")


def probe_all() -> list[LayerStatus]:
    """What this machine offers, layer by layer (for `judge doctor` and tests that need a layer).

    Unlike the cheap probes a child runs, this tries a user namespace in a throwaway
    process when the judge is not root, so the reason a namespace is missing is exact.
    """
    shared = namespaces.available()
    statuses = []
    for layer in LAYERS:
        ok, why = layer.probe()
        if ok and layer.name in _NAMESPACE_LAYERS and not shared[0]:
            ok, why = shared
        statuses.append(LayerStatus(layer.name, ok, why))
    return statuses
