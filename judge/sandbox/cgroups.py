"""Per-run control groups: a memory cap that counts every page a run holds, and a cap on its tasks.

`RLIMIT_AS` bounds what a run maps, not what it holds: the pages of a memfd that is never
mapped, of POSIX shared memory or of a tmpfs are outside it, and so outside `ru_maxrss`.
A memory cgroup charges each page to the run that faulted it in or wrote
it, in whatever form; over the group's limit the kernel's OOM killer ends the run (SIGKILL) and
the monitor reports the group's peak, which `judge.runs.decisions` reads as memory_limit_exceeded. A
pids cgroup caps the run's tasks (processes and threads together), so parallel runs cannot
exhaust the machine's PIDs.

The run's group is made by its monitor, as the judge's own user, below the judge's own group
of each cgroup v1 hierarchy (`memory`, `pids`) where that directory is writable to it: for
root, on this project's machines. The worker joins it as soon as it is forked (ahead of its
request, while the judge is idle: a move takes milliseconds) and writes the run's limits as its
first layer, before anything of a submission; the mount namespace then hides /sys/fs/cgroup and
Landlock forbids writing there, so a submission cannot raise them. The monitor reads the peak
and removes the group after the worker has ended.

Not used: cgroup v2, where a child group gets controllers only below a delegated group that
holds no process itself (systemd's user delegation, which these machines do not run). Where
no memory group can be had, what a group would count is denied instead (`memfd_create` by
seccomp, /dev/shm by Landlock; the scratch tmpfs is capped by its size), and `judge doctor`
says so; tasks are then capped by RLIMIT_NPROC, which counts per user namespace (the run's
own), except for a root judge, whom the kernel exempts.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

CONTROLLERS = ("memory", "pids")


def _mounts() -> dict[str, Path]:
    """Where each cgroup v1 controller is mounted (from /proc/self/mountinfo)."""
    found: dict[str, Path] = {}
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        before, _, after = line.partition(" - ")
        parts, rest = before.split(), after.split()
        if len(parts) < 5 or len(rest) < 3 or rest[0] != "cgroup":
            continue
        for option in rest[2].split(","):
            if option in CONTROLLERS:
                found.setdefault(option, Path(parts[4]))
    return found


def _own_groups() -> dict[str, str]:
    """This process's group in each v1 controller's hierarchy (from /proc/self/cgroup)."""
    groups: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return groups
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) == 3:
            for controller in parts[1].split(","):
                if controller in CONTROLLERS:
                    groups[controller] = parts[2]
    return groups


def bases() -> tuple[dict[str, Path], dict[str, str]]:
    """Per controller: the directory a run's group goes in, or why there is none."""
    mounts, groups = _mounts(), _own_groups()
    usable: dict[str, Path] = {}
    missing: dict[str, str] = {}
    for controller in CONTROLLERS:
        if controller not in mounts or controller not in groups:
            missing[controller] = f"no cgroup v1 {controller} hierarchy"
            continue
        base = mounts[controller] / groups[controller].lstrip("/")
        if not os.access(base, os.W_OK | os.X_OK):
            missing[controller] = f"{base} is not writable by this user (cgroup v1 needs root or a delegated group)"
            continue
        usable[controller] = base
    return usable, missing


@dataclass
class RunGroup:
    """One run's groups, a directory per controller (made by the monitor, joined by the worker)."""

    paths: dict[str, Path] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)  # controller -> why it has no group
    joined: set[str] = field(default_factory=set)          # controllers the calling process is in

    @classmethod
    def create(cls, name: str) -> "RunGroup":
        usable, missing = bases()
        group = cls(missing=dict(missing))
        for controller, base in usable.items():
            path = base / name
            try:
                path.mkdir(mode=0o755)
            except OSError as exc:
                group.missing[controller] = f"cannot create {path}: {exc.strerror or exc}"
                continue
            group.paths[controller] = path
        return group

    def join(self, controller: str) -> None:
        """Move the calling process into its group of `controller` (its threads and children follow).

        A move costs milliseconds (the kernel waits for an RCU grace period per hierarchy), so the
        worker joins as soon as it is forked, ahead of its request, and again is a no-op."""
        if controller not in self.joined:
            (self.paths[controller] / "cgroup.procs").write_text("0")
            self.joined.add(controller)

    def limit_memory(self, memory_bytes: int) -> None:
        memory = self.paths["memory"]
        # Under the group's limit, reclaim must not swap the run's pages out of its count.
        _write_if_present(memory / "memory.swappiness", "0")
        (memory / "memory.limit_in_bytes").write_text(str(memory_bytes))
        _write_if_present(memory / "memory.memsw.limit_in_bytes", str(memory_bytes))

    def limit_tasks(self, tasks: int) -> None:
        (self.paths["pids"] / "pids.max").write_text(str(tasks))

    def peak_kb(self) -> int:
        """The memory group's peak usage (every page charged to the run), 0 without one."""
        memory = self.paths.get("memory")
        if memory is None:
            return 0
        try:
            return int((memory / "memory.max_usage_in_bytes").read_text()) // 1024
        except (OSError, ValueError):
            return 0

    def oom_kills(self) -> int:
        memory = self.paths.get("memory")
        if memory is None:
            return 0
        try:
            fields = (memory / "memory.oom_control").read_text().split()
        except OSError:
            return 0
        pairs = dict(zip(fields[::2], fields[1::2]))
        return int(pairs.get("oom_kill", "0")) if pairs.get("oom_kill", "0").isdigit() else 0

    def remove(self) -> None:
        """Remove the groups (their processes have ended; charged page cache moves to the parent)."""
        for path in self.paths.values():
            try:
                path.rmdir()
            except OSError:
                pass  # a task still exiting: the parent group's owner can remove it later

    def to_plain(self) -> dict:
        return {"paths": {k: str(v) for k, v in self.paths.items()}, "missing": dict(self.missing)}


def _write_if_present(path: Path, value: str) -> None:
    try:
        path.write_text(value)
    except (FileNotFoundError, PermissionError):
        pass  # an optional knob this kernel does not have (memsw without swap accounting)
    except OSError:
        pass  # e.g. EINVAL: memsw below the memory limit while it is being set; the memory limit holds


def probe() -> tuple[bool, str]:
    """Whether a run can get a memory group here (for `judge doctor`)."""
    usable, missing = bases()
    if "memory" in usable:
        return True, f"cgroup v1 at {usable['memory']}: every page a run holds counts against its memory limit"
    return False, missing["memory"]


def probe_tasks() -> tuple[bool, str]:
    usable, missing = bases()
    if "pids" in usable:
        return True, f"cgroup v1 pids at {usable['pids']}"
    return False, missing["pids"]
