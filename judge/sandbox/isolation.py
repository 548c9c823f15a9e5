"""Isolation layers applied inside the sandbox child, and what this machine supports.

Each layer is small and independent: it knows whether the machine can provide
it (`probe`, used by `judge doctor` and the one-time warning) and how to apply
it in the child before the submission's code is loaded. The order matters and
is fixed in `apply_all`: things that need privileges or file access come
first, and the submission is loaded last.
"""
from __future__ import annotations

import os
import resource
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from judge.sandbox.limits import Limits


@dataclass(frozen=True)
class LayerStatus:
    name: str
    active: bool
    detail: str


@dataclass(frozen=True)
class Layer:
    name: str
    blocks: str
    probe: Callable[[], tuple[bool, str]]
    apply: Callable[["ChildContext"], None]


@dataclass
class ChildContext:
    """What a layer needs to know inside the child."""

    limits: Limits
    scratch: Path
    keep_fds: tuple[int, ...]
    readable: tuple[str, ...] = ()


def _always() -> tuple[bool, str]:
    return True, "available"


def _apply_env(ctx: ChildContext) -> None:
    os.environ.clear()
    os.environ.update({"PATH": "/usr/bin:/bin", "HOME": str(ctx.scratch), "TMPDIR": str(ctx.scratch),
                       "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
                       "OMP_NUM_THREADS": str(ctx.limits.threads)})


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


def _apply_scratch(ctx: ChildContext) -> None:
    # The judge's working directory (often the repository) must not be importable.
    here = os.getcwd()
    sys.path[:] = [p for p in sys.path if p and os.path.isabs(p) and p != here]
    os.chdir(ctx.scratch)


def _address_space_now() -> int:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[0])
    return pages * os.sysconf("SC_PAGE_SIZE")


def _apply_rlimits(ctx: ChildContext) -> None:
    limits = ctx.limits
    memory = _address_space_now() + limits.memory_mb * (1 << 20)
    cpu = int(limits.time_s * 4 + limits.import_time_s) + 1
    for which, value in ((resource.RLIMIT_AS, memory),
                         (resource.RLIMIT_CPU, cpu),
                         (resource.RLIMIT_FSIZE, limits.file_bytes),
                         (resource.RLIMIT_CORE, 0)):
        resource.setrlimit(which, (value, value))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # Lowering NOFILE cannot close fds we keep; it only stops new ones.
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))


def _probe_rlimits() -> tuple[bool, str]:
    if not hasattr(resource, "RLIMIT_AS"):
        return False, "this platform has no RLIMIT_AS: memory is limited by time only"
    return True, "address space, CPU time, file size, open files"


LAYERS: tuple[Layer, ...] = (
    Layer("session", "killing the whole process group on timeout", _always, lambda ctx: None),
    Layer("environment", "leaking the judge's environment variables", _always, _apply_env),
    Layer("file descriptors", "reaching the judge through inherited files", _always, _apply_fds),
    Layer("scratch directory", "writing into the working directory of the judge", _always, _apply_scratch),
    Layer("resource limits", "memory, CPU-time and file-size bombs", _probe_rlimits, _apply_rlimits),
)


def apply_all(ctx: ChildContext) -> list[str]:
    """Apply every available layer; return the names of those that failed."""
    failed = []
    for layer in LAYERS:
        ok, _ = layer.probe()
        if not ok:
            continue
        try:
            layer.apply(ctx)
        except OSError as exc:
            failed.append(f"{layer.name}: {exc}")
    return failed


def probe_all() -> list[LayerStatus]:
    return [LayerStatus(layer.name, *layer.probe()) for layer in LAYERS]
