"""A worker's CPU time, read by the judge: the clock its time limits count.

The kernel accounts every thread's time to its process, whatever the machine is doing meanwhile, and
nothing the worker does changes that account. The judge reads the process's CPU-time clock
(clock_gettime on the clock id the kernel derives from a pid: one system call, nanoseconds, no lock on
the worker's memory map as a read of /proc/<pid>/stat takes). Where that clock cannot be read, the
worker's /proc/<pid>/stat (utime and stime, in clock ticks) is read instead; where neither can, the
clock is unknown and the limits fall back to the wall clock.
"""
from __future__ import annotations

import os
import time

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_SCHED = 2   # CPUCLOCK_SCHED: the process's whole scheduled time (every thread), as the kernel encodes it


def process_clock(pid: int) -> int:
    """The clock id of process `pid`'s CPU time (the kernel's encoding: the pid inverted, then the clock type)."""
    return ((~pid) << 3) | _SCHED


class CpuClock:
    """The CPU seconds a process has used, or None where they cannot be read."""

    def __init__(self) -> None:
        self.clock: int | None = None
        self.fd: int | None = None

    @property
    def attached(self) -> bool:
        return self.clock is not None or self.fd is not None

    def attach(self, pid: int) -> None:
        """Start reading `pid` (the worker, as the monitor forked it)."""
        self.close()
        try:
            time.clock_gettime_ns(process_clock(pid))
            self.clock = process_clock(pid)
            return
        except (OSError, OverflowError, AttributeError):
            self.clock = None
        try:
            self.fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            self.fd = None

    def seconds(self) -> float | None:
        if self.clock is not None:
            try:
                return time.clock_gettime_ns(self.clock) / 1e9
            except OSError:  # the worker is gone: its last account is in the monitor's exit record
                return None
        if self.fd is None:
            return None
        try:
            stat = os.pread(self.fd, 1024, 0)
        except OSError:
            return None
        # The command name (field 2) may hold spaces and parentheses: fields are counted after its last ")".
        fields = stat.rsplit(b")", 1)[-1].split()
        try:
            return (int(fields[11]) + int(fields[12])) / _TICKS  # utime and stime, fields 14 and 15
        except (IndexError, ValueError):
            return None

    def close(self) -> None:
        self.clock = None
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
