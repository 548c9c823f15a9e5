"""The warm fork server and the per-run monitor.

`judge.sandbox.launch` starts the server as a fresh Python process (not a fork of the
judge) with a minimal environment; it imports the framework once and then
forks one child per submission. It shares no memory with the judge, ever: no
hidden test, expected value, reference, environment secret or anything the
judge loaded before it started can be found by a submission scanning its own
memory. It also imports torch while the judge is busy reading the problem, so
on two cores the framework import costs the wall clock once. For each run it forks a monitor, which
forks the sandboxed worker, waits for it, kills its whole process group when
the judge says so (or when the judge goes away), removes the scratch
directory and reports the exit status. The judge gets the run's three
descriptors (data socket, control socket, output pipe) over SCM_RIGHTS, so the
zygote never sees inputs or results.

A run's two forks (monitor, then worker, each copying the page tables of a
process that holds torch) and its namespaces are made ahead: when the run
handed over last has ended, the zygote forks the next one, whose worker
waits for its request as judge code, before any isolation layer or anything
of a submission; a SPAWN hands it over at once. Every layer is still applied
by the worker after it reads its request, exactly as for a run forked on
demand. Before READY, the zygote also does once what every child would
otherwise do first: Python's install paths (the Landlock allow-list) and
torch's lazy set-up, through one tiny call of the judge's own function.
"""
from __future__ import annotations

import gc
import importlib
import json
import os
import select
import shutil
import signal
import socket
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from judge.sandbox import cgroups, isolation, memory, namespaces, warmup, worker

from judge.sandbox import channel
from judge.sandbox.channel import KILL, SERVER_FAILED as FAILED, SERVER_READY as READY, SPAWN


def main(fd: int) -> None:
    """The zygote process: read the configuration, preload, say READY, then fork runs until the judge goes away."""
    sock = socket.socket(fileno=fd)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Read by OpenMP when torch loads it, below: a child's torch thread that has finished its part
    # of an operation sleeps instead of spinning for milliseconds, taking a core from the child's
    # own thread and from the judge on a small or busy machine (on this project's loaded 2-core
    # machine the 28 calls of a patchify run took 12-16 ms less). It changes how threads wait,
    # not how many there are or what they compute; a judge's own OMP_WAIT_POLICY is kept.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    config = _read_config(sock)
    if config is None:
        os._exit(0)  # the judge went away before it needed us
    try:
        for module in config["preload"]:
            importlib.import_module(module)
    except Exception as exc:  # reported to the judge, which raises a one-line SandboxError
        _say(sock, FAILED + f"importing {module} failed: {type(exc).__name__}: {exc}".encode()[:2000])
        os._exit(1)
    torch = sys.modules.get("torch")
    if torch is not None:
        # A fork after a multi-threaded torch op hangs the child in libgomp; the
        # zygote stays single-threaded and each child sets its own count.
        torch.set_num_threads(1)
    scratch_root, protected = Path(config["scratch_root"]), tuple(Path(p) for p in config["protected"])
    try:
        _warm_up(protected)
    except Exception:  # noqa: BLE001 - only a saving: each child then does its own set-up, as it did before
        pass
    # Every object the zygote holds now goes to the collector's permanent generation. A child's
    # collection then never walks them: walking one writes its header, and each page written after
    # the fork is a copy (a patchify run decoded its inputs in 6.8 ms instead of 1.8 ms). The child
    # still collects everything it makes itself, the submission's objects included.
    gc.collect()
    gc.freeze()
    if not _say(sock, READY):
        os._exit(0)  # the judge is gone already (it stopped on a configuration error)
    code = 0
    try:
        _serve(sock, scratch_root, protected, tuple(config["disabled"]))
    except BaseException:  # a forked monitor must never unwind into this loop
        code = 70
    os._exit(code)


def _read_config(sock: socket.socket) -> dict | None:
    try:
        kind, payload = channel.recv_frame(sock)
        return json.loads(payload) if kind == channel.CONFIG else None
    except (OSError, ValueError, channel.ChannelError):
        return None


def _say(sock: socket.socket, message: bytes) -> bool:
    try:
        sock.sendall(message)
        return True
    except OSError:
        return False


def _warm_up(protected: tuple[Path, ...]) -> None:
    """Do once, in the zygote, the set-up every child would otherwise repeat in its first milliseconds:
    the install paths Landlock allows (sysconfig and site compute them lazily) and torch's lazy set-up
    (judge.sandbox.warmup). torch has one thread here (set before), so no thread pool exists at the
    fork. The tensors are freed; a child's memory limits count from what it starts with, so they
    mean what they did."""
    isolation.readable_paths(protected)
    warmup.in_zygote()


@dataclass
class _Run:
    """A run forked by the zygote: the judge's ends of its descriptors, and its monitor."""

    data: socket.socket
    ctl: socket.socket
    out: int
    monitor: int | None   # a pidfd, readable once the monitor has exited; None where pidfds are missing

    def hand_over(self, sock: socket.socket) -> None:
        """Send the judge its three descriptors; the zygote keeps none of them."""
        try:
            socket.send_fds(sock, [b"F"], [self.data.fileno(), self.ctl.fileno(), self.out])
        finally:
            self.data.close()
            self.ctl.close()
            os.close(self.out)


def _serve(sock: socket.socket, scratch_root: Path, protected: tuple[Path, ...], disabled: tuple[str, ...]) -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # monitors are reaped automatically
    ahead: _Run | None = _fork_run(sock, (), scratch_root, protected, disabled)
    running: int | None = None  # the pidfd of the monitor handed over last, while it runs
    while True:
        # Fork the next run ahead once the last one handed over has ended: forking while it
        # runs would take CPU from the submission being timed.
        if ahead is None and running is None:
            ahead = _fork_run(sock, (), scratch_root, protected, disabled)
        watched = [sock] if running is None else [sock, running]
        readable, _, _ = select.select(watched, [], [])
        if running is not None and running in readable:
            os.close(running)
            running = None
        if sock not in readable:
            continue
        request = sock.recv(1)
        if request != SPAWN:
            return  # judge closed the socket or spoke nonsense
        if ahead is None:  # runs overlap (a batch judged by several threads): fork this one now
            ahead = _fork_run(sock, () if running is None else (running,), scratch_root, protected, disabled)
        run = ahead
        ahead = None
        if running is not None:
            os.close(running)
        running = run.monitor
        run.hand_over(sock)


def _fork_run(sock: socket.socket, pidfds: tuple[int, ...], scratch_root: Path, protected: tuple[Path, ...],
              disabled: tuple[str, ...]) -> _Run:
    """Fork a monitor (which forks the worker, which waits for its request) and keep the judge's ends.

    `pidfds` are the zygote's handles on other runs' monitors: the new run must not inherit them.
    """
    data_judge, data_child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    ctl_judge, ctl_child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    out_read, out_write = os.pipe()
    _widen(data_judge, data_child)
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            for s in (sock, data_judge, ctl_judge):
                s.close()
            for fd in (out_read, *pidfds):
                os.close(fd)
            _monitor(data_child, ctl_child, out_write, scratch_root, protected, disabled)
        except BaseException:
            code = 70
        os._exit(code)
    data_child.close()
    ctl_child.close()
    os.close(out_write)
    try:
        monitor = os.pidfd_open(pid)
    except (AttributeError, OSError):  # before Linux 5.3, or already gone: the next run is forked at once
        monitor = None
    return _Run(data_judge, ctl_judge, out_read, monitor)


# Bytes either side of a run's data channel may queue unread: a request or a result (a ViT-sized
# image is 600 KB) is then written at once, and the writer goes on while the other side decodes.
CHANNEL_BUFFER = 4 << 20


def _widen(*ends: socket.socket) -> None:
    """Ask for CHANNEL_BUFFER; the kernel caps it at net.core.wmem_max (then writes wait sooner)."""
    for end in ends:
        try:
            end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, CHANNEL_BUFFER)
        except OSError:
            pass


def _monitor(data: socket.socket, ctl: socket.socket, out_write: int, scratch_root: Path,
             protected: tuple[Path, ...], disabled: tuple[str, ...]) -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    scratch = Path(tempfile.mkdtemp(prefix="judge-run-", dir=scratch_root))
    # Made as the judge's user, before the user namespace: the worker joins it and writes its limits.
    group = cgroups.RunGroup.create(scratch.name)
    # The PID namespace, whose next process is the worker (with a user namespace where the judge is not
    # root): the worker notices what it did not get and reports those layers as missing.
    namespaces.enter(user="user namespace" not in disabled, pid="pid namespace" not in disabled,
                     direct="own identity" not in disabled and namespaces.privileged())
    baseline_kb = _rss_kb()  # what the worker starts with: the judge charges only what it adds
    # The worker hands its seccomp listener over on this pair and asks for its peak to be measured.
    measure, measure_worker = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    pid = os.fork()
    if pid == 0:
        ctl.close()
        measure.close()
        os.setsid()
        worker.main(data.detach(), out_write, scratch, protected, disabled, group,
                    measure_worker.detach())  # never returns
    data.close()
    measure_worker.close()
    os.close(out_write)
    try:  # the judge times each call by the worker's CPU time, which it reads in /proc/<pid>/stat
        channel.send_frame(ctl, channel.WORKER, json.dumps({"pid": pid}).encode())
    except OSError:
        pass
    monitor = memory.Monitor(pid, measure, ctl)
    try:
        status, usage = _wait_or_kill(pid, ctl, monitor)
    finally:
        monitor.close()
    killed = status is None
    if killed:
        _, status, usage = os.wait4(pid, 0)
    _kill_all(pid)  # whatever it left behind in its process group
    record = {"status": status, "maxrss_kb": usage.ru_maxrss, "cpu_s": usage.ru_utime + usage.ru_stime,
              "killed": killed, "baseline_kb": baseline_kb, "group_peak_kb": group.peak_kb(),
              "oom_kills": group.oom_kills()}
    group.remove()
    try:
        channel.send_frame(ctl, channel.EXIT, json.dumps(record).encode())
    except OSError:
        pass
    # After the record: removing many files must not delay the judge (nor count as the run's time).
    shutil.rmtree(scratch, ignore_errors=True)  # rmtree does not follow planted symlinks


def _rss_kb() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _wait_or_kill(pid: int, ctl: socket.socket, monitor: memory.Monitor):
    """Wait for the worker, measuring its memory as it asks (judge.sandbox.memory); kill it when
    the judge asks or goes away.

    Returns (status, rusage) when it exited by itself, (None, None) once killed.
    """
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):  # before Linux 5.3, or not Linux: poll instead
        pidfd = None
    while True:
        watched = ([ctl] if pidfd is None else [pidfd, ctl]) + monitor.fds()
        readable, _, _ = select.select(watched, [], [], None if pidfd is not None else 0.02)
        monitor.on_readable(readable)
        if pidfd is not None and pidfd in readable:
            os.close(pidfd)
            _, status, usage = os.wait4(pid, 0)
            return status, usage
        if pidfd is None:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                return status, usage
        if ctl in readable:
            message = ctl.recv(1)
            if message == KILL or not message:  # the judge asked, or the judge is gone
                _kill_all(pid)
                if pidfd is not None:
                    os.close(pidfd)
                return None, None


def _kill_all(pid: int) -> None:
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
