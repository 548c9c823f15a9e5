"""A worker's CPU time, read by the judge: the clock its time limits count.

The kernel accounts every thread's time to its process (/proc/<pid>/stat,
fields utime and stime), whatever the machine is doing meanwhile, and nothing
the worker does changes that account. The judge reads it through a descriptor
kept open for the worker's life, so a read is one pread. Where /proc is missing
the clock is unknown, and the limits fall back to the wall clock.
"""
from __future__ import annotations

import os

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class CpuClock:
    """The CPU seconds a process has used, or None where they cannot be read."""

    def __init__(self) -> None:
        self.fd: int | None = None

    def attach(self, pid: int) -> None:
        """Start reading `pid` (the worker, as the monitor forked it)."""
        self.close()
        try:
            self.fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            self.fd = None

    def seconds(self) -> float | None:
        if self.fd is None:
            return None
        try:
            stat = os.pread(self.fd, 1024, 0)
        except OSError:  # the worker is gone: its last account is in the monitor's exit record
            return None
        # The command name (field 2) may hold spaces and parentheses: fields are counted after its last ")".
        fields = stat.rsplit(b")", 1)[-1].split()
        try:
            return (int(fields[11]) + int(fields[12])) / _TICKS  # utime and stime, fields 14 and 15
        except (IndexError, ValueError):
            return None

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
