"""Isolation layers applied inside the sandbox child, and what this machine supports.

Each layer is small and independent: it knows whether the machine can provide
it (`probe`, used by `judge doctor` and the one-time warning) and how to apply
it in the child before the submission's code is loaded. `apply_all` fixes the
order: layers that need privileges or file access come first, the
capabilities are dropped next, then Landlock and seccomp close the door.

The child stays uid 0 but without any capability: a setuid to an unprivileged
user would break imports where the Python install is private to root (mode
0700, as on this project's machines), while a capability-less root can still
read the files it owns but can no longer mount, unmount, trace or override
permissions, and Landlock limits which files those are.
"""
from __future__ import annotations

import os
import resource
import site
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from judge.sandbox import landlock, namespaces, seccomp, syscalls
from judge.sandbox.limits import DISABLE_ENV, Limits


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
    protected: tuple[Path, ...] = ()      # the judge's data: hidden tests, submissions, problems
    calls: int = 1                        # calls this child will run (scales the CPU-time backstop)
    disabled: tuple[str, ...] = ()        # layers switched off on purpose (tests, debugging)
    active: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Layer:
    name: str
    blocks: str
    probe: Callable[[], tuple[bool, str]]
    apply: Callable[[ChildContext], None]


def _always() -> tuple[bool, str]:
    return True, "available"


def _linux_only() -> tuple[bool, str]:
    return (True, "available") if sys.platform.startswith("linux") else (False, "needs Linux")


# ------------------------------------------------------------------ layers

def _apply_pid(ctx: ChildContext) -> None:
    if os.getpid() != 1:  # the monitor could not create the namespace
        raise OSError(1, "the monitor could not create a PID namespace")


def _apply_env(ctx: ChildContext) -> None:
    os.environ.clear()
    os.environ.update({"PATH": "/usr/bin:/bin", "HOME": str(ctx.scratch), "TMPDIR": str(ctx.scratch),
                       "LANG": "C.UTF-8", "OMP_NUM_THREADS": str(ctx.limits.threads)})
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
    namespaces.isolate_network()


def _apply_mounts(ctx: ChildContext) -> None:
    problems = namespaces.isolate_mounts(ctx.protected, own_proc=os.getpid() == 1, scratch=ctx.scratch,
                                         scratch_mb=ctx.limits.scratch_mb)
    if problems:
        raise OSError(1, "; ".join(problems))


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
    return True, f"ABI {abi}: reads only Python and library files, writes only the scratch directory{extra}"


def readable_paths(protected: tuple[Path, ...]) -> list[Path]:
    """Trees the child may read: the Python installation, libraries, a few device files."""
    candidates = {sys.prefix, sys.base_prefix, sys.exec_prefix, *site.getsitepackages(),
                  *[p for p in sys.path if p and os.path.isabs(p)],
                  "/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/share/zoneinfo",
                  "/etc/ld.so.cache", "/etc/localtime", "/proc/self", "/proc/cpuinfo", "/proc/meminfo",
                  "/sys/devices/system/cpu"}
    allowed = []
    for candidate in sorted(candidates):
        path = Path(candidate)
        real = Path(os.path.realpath(path))
        # A tree that contains judge data is never readable as a whole.
        if any(_inside(p, real) or _inside(real, p) for p in protected):
            continue
        allowed.append(path)
    return allowed


def _inside(child: Path, parent: Path) -> bool:
    try:
        Path(os.path.realpath(child)).relative_to(os.path.realpath(parent))
        return True
    except ValueError:
        return False


def _apply_landlock(ctx: ChildContext) -> None:
    read = readable_paths(ctx.protected)
    if os.getpid() == 1:
        read.append(Path("/proc"))  # our own /proc shows only the sandbox's processes
    landlock.restrict(read, [ctx.scratch], [Path("/dev/null"), Path("/dev/zero"), Path("/dev/urandom")])


def _apply_seccomp(ctx: ChildContext) -> None:
    seccomp.install()


LAYERS: tuple[Layer, ...] = (
    Layer("process group", "children outliving the time limit (the whole group is killed)", _always,
          lambda ctx: None),
    Layer("pid namespace", "seeing, signalling or tracing the judge; leftover processes",
          namespaces.available, _apply_pid),
    Layer("clean environment", "reading the judge's environment variables", _linux_only, _apply_env),
    Layer("closed descriptors", "reaching the judge through inherited files", _always, _apply_fds),
    Layer("network namespace", "all network access, loopback included", namespaces.available, _apply_network),
    Layer("mount namespace", "reading hidden tests and known submissions; the judge's /proc",
          namespaces.available, _apply_mounts),
    Layer("scratch directory", "writing into the judge's working directory", _always, _apply_scratch),
    Layer("resource limits", "memory, CPU-time, file-size and open-file bombs", _probe_rlimits, _apply_rlimits),
    Layer("no capabilities", "unmounting, tracing, overriding file permissions", _probe_capabilities,
          _apply_capabilities),
    Layer("landlock", "reading or writing files outside the allowed trees; TCP; signals", _probe_landlock,
          _apply_landlock),
    Layer("seccomp", "starting programs or processes, sockets, ptrace, mounts, namespaces", seccomp.supported,
          _apply_seccomp),
)


def apply_all(ctx: ChildContext) -> None:
    """Apply every layer the machine supports; record which are active and which failed."""
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


def disabled_from_env(environ: dict | None = None) -> tuple[str, ...]:
    """Layers named in $JUDGE_SANDBOX_DISABLE (comma-separated); unknown names are an error."""
    raw = (environ if environ is not None else os.environ).get(DISABLE_ENV, "")
    names = tuple(n.strip() for n in raw.split(",") if n.strip())
    known = {layer.name for layer in LAYERS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"{DISABLE_ENV}: unknown layer(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return names


def probe_all() -> list[LayerStatus]:
    return [LayerStatus(layer.name, *layer.probe()) for layer in LAYERS]
