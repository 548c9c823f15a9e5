"""Measuring memory exhaustion from outside the child: the monitor sees the worker's large requests.

A call that runs out of memory raises MemoryError (numpy) or a RuntimeError
saying "can't allocate memory" (torch): the allocation asked for more address
space than RLIMIT_AS leaves. Which exception a call raised is the child's
claim, and `raise MemoryError()` costs nothing; so memory_limit_exceeded rests
on the monitor's own measurement (the monitor is the judge's process, the
worker's parent), never on the exception:

- A second seccomp filter sends every request for a large piece of address
  space (`mmap` of at least LARGE bytes, `mremap` to at least LARGE bytes) to
  the monitor (SECCOMP_RET_USER_NOTIF, Linux 5.5 and later). The monitor
  reads the worker's address space and its limit from /proc, notes whether
  the request goes over the limit, and only then lets the kernel carry the
  call out as it would have (SECCOMP_USER_NOTIF_FLAG_CONTINUE): nothing is
  refused or changed here.
- A call whose error claims memory makes the worker ask the monitor to
  measure, naming the call's index, before it sends the result. The call ran
  out of memory if a request since the last measurement went over the limit,
  or if the worker's peak address space (VmPeak) came within LARGE of it (a
  smaller request failed there). The monitor sends that record, with the
  index, to the judge before it lets the worker go on.

So a call's record is in the judge's control channel before the call's result
is in its data channel, and it names the call: the judge pairs the two however
late it reads either. The judge decides memory_limit_exceeded only from such a
record. Claiming memory without using it gets a runtime_error; reaching the
limit to forge the measurement is running out of memory. Where the kernel has
no seccomp notifications, the peak still counts; a single request far over the
limit then reads as the runtime error it raised.
"""
from __future__ import annotations

import ctypes
import errno
import fcntl
import json
import os
import socket
import struct

from judge.sandbox import seccomp, syscalls

# Requests at least this large go past the monitor; smaller ones that fail leave the peak within this of the limit.
LARGE = 16 << 20

# The most records a monitor sends in a run: the judge needs one per call, a worker asking in a loop gets no more.
MAX_RECORDS = 256

# From the worker: MEASURE and the call's index (INDEX), measure me now; answered with ACK once the judge has the record.
MEASURE = b"M"
INDEX = struct.Struct("<I")
ACK = b"a"

_SYS_SECCOMP = {"x86_64": 317, "aarch64": 277}
_SECCOMP_SET_MODE_FILTER = 1
_SECCOMP_FILTER_FLAG_NEW_LISTENER = 1 << 3
_RET_USER_NOTIF = 0x7FC00000
_RET_ALLOW = 0x7FFF0000
_NOTIF_RECV = 0xC0502100   # SECCOMP_IOCTL_NOTIF_RECV: _IOWR('!', 0, struct seccomp_notif), 80 bytes
_NOTIF_SEND = 0xC0182101   # SECCOMP_IOCTL_NOTIF_SEND: _IOWR('!', 1, struct seccomp_notif_resp), 24 bytes
_FLAG_CONTINUE = 1
_NOTIF = struct.Struct("<QII" + "iIQ6Q")  # id, pid, flags, then seccomp_data: nr, arch, ip, args[6]
_RESPONSE = struct.Struct("<QqiI")       # id, val, error, flags
_NUMBERS = {"x86_64": {"mmap": 9, "mremap": 25}, "aarch64": {"mmap": 222, "mremap": 216}}


def supported() -> tuple[bool, str]:
    if syscalls.MACHINE not in _NUMBERS:
        return False, f"no system-call table for {syscalls.MACHINE}"
    ok, why = seccomp.supported()
    if not ok:
        return False, why
    release = os.uname().release.split("-")[0].split(".")
    try:
        if tuple(int(p) for p in release[:2]) < (5, 5):
            return False, "the kernel is older than 5.5 (no seccomp notifications that let a call go on)"
    except ValueError:
        pass
    return True, (f"the monitor sees every request for {LARGE >> 20} MiB or more of address space and the peak: "
                  "memory_limit_exceeded rests on its measurement, not on a MemoryError the child raises")


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k & 0xFFFFFFFF)


def program(machine: str | None = None) -> bytes:
    """The notifying filter: a large mmap or mremap goes to the listener, everything else is allowed."""
    machine = machine or syscalls.MACHINE
    numbers = _NUMBERS[machine]
    audit = seccomp.audit_arch(machine)
    ld, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06

    def large(argument: int) -> list[bytes]:
        low = 16 + 8 * argument  # seccomp_data.args[i], little-endian: low word first
        return [_op(ld, low + 4),                   # high word: any bit set is at least 4 GiB
                _op(jeq, 0, jt=1, jf=0),
                _op(ret, _RET_USER_NOTIF),
                _op(ld, low),
                _op(jge, LARGE, jt=0, jf=1),
                _op(ret, _RET_USER_NOTIF),
                _op(ret, _RET_ALLOW)]

    mmap_check, mremap_check = large(1), large(2)       # mmap(addr, length...), mremap(old, old_len, new_len...)
    ops = [_op(ld, 4), _op(jeq, audit, jt=1, jf=0), _op(ret, _RET_ALLOW),  # other ABIs: the main filter decides
           _op(ld, 0),
           _op(jeq, numbers["mmap"], jt=0, jf=len(mmap_check))] + mmap_check
    ops += [_op(jeq, numbers["mremap"], jt=0, jf=len(mremap_check))] + mremap_check
    ops += [_op(ret, _RET_ALLOW)]
    return b"".join(ops)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install() -> int:
    """Load the notifying filter into this process (irreversible); returns the listener's descriptor."""
    code = program()
    buffer = ctypes.create_string_buffer(code, len(code))
    prog = _SockFprog(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    syscalls.no_new_privs()
    return syscalls.syscall(_SYS_SECCOMP[syscalls.MACHINE], ctypes.c_ulong(_SECCOMP_SET_MODE_FILTER),
                            ctypes.c_ulong(_SECCOMP_FILTER_FLAG_NEW_LISTENER), ctypes.byref(prog))


def ask(sock: socket.socket | None, index: int) -> None:
    """The worker: ask the monitor to measure call `index`, and wait until the judge has the record."""
    if sock is None:
        return
    try:
        sock.sendall(MEASURE + INDEX.pack(index))
        sock.recv(1)
    except OSError:
        pass  # no monitor to answer: the judge has no measurement, and says so by its verdict


class Monitor:
    """The monitor's side: the worker's pid, its listener once handed over, and the judge's control socket."""

    def __init__(self, pid: int, measure: socket.socket, ctl: socket.socket) -> None:
        self.pid, self.measure, self.ctl = pid, measure, ctl
        self.listener: int | None = None
        self.asking = True  # the worker's end of `measure` is open
        self.told = 0
        self.over = ""       # the first request over the limit since the last measurement: what it was
        self.pending = b""   # what the worker sent that is not yet a whole request

    def fds(self) -> list:
        return ([self.measure] if self.asking else []) + ([self.listener] if self.listener is not None else [])

    def on_readable(self, readable: list) -> None:
        # Requests first: a measurement asked for after a refused request must see it.
        if self.listener is not None and self.listener in readable:
            self._on_notification()
        if self.measure in readable:
            self._on_measure()

    def close(self) -> None:
        if self.listener is not None:
            os.close(self.listener)
            self.listener = None
        self.measure.close()

    def _on_measure(self) -> None:
        try:
            message, fds, _, _ = socket.recv_fds(self.measure, 64, 1)
        except OSError:
            message, fds = b"", []
        if fds:
            if self.listener is None:
                self.listener = fds[0]
            else:
                os.close(fds[0])
        if not message and not fds:
            self.asking = False  # the worker closed its end (or is gone): nothing more to read
            return
        self.pending += message
        while self.pending:
            if self.pending[:1] != MEASURE:
                self.pending = self.pending[1:]  # the listener's handover byte, or noise
                continue
            if len(self.pending) < 1 + INDEX.size:
                return  # the rest of the request is on its way
            (index,) = INDEX.unpack_from(self.pending, 1)
            self.pending = self.pending[1 + INDEX.size:]
            self._measured(index)

    def _measured(self, index: int) -> None:
        """Tell the judge whether call `index` ran out of memory (only if it did), then let the worker go on."""
        peak, limit = _status_kb(self.pid, "VmPeak") * 1024, _address_limit(self.pid)
        detail, self.over = self.over, ""
        if not detail and limit is not None and peak + LARGE >= limit:
            detail = f"its address space peaked at {peak >> 20} MiB of the {limit >> 20} MiB it may map"
        if detail:
            self._tell({"index": index, "exhausted": True, "detail": detail})
        try:
            self.measure.sendall(ACK)
        except OSError:
            pass

    def _on_notification(self) -> None:
        buffer = bytearray(_NOTIF.size)
        try:
            fcntl.ioctl(self.listener, _NOTIF_RECV, buffer)
        except OSError as exc:
            if exc.errno in (errno.ENOENT, errno.EINTR):
                return  # the caller died (or was killed) while it waited
            os.close(self.listener)  # the worker is gone: the listener only hangs up from now on
            self.listener = None
            return
        ident, _pid, _flags, number, _arch, _ip, *args = _NOTIF.unpack(buffer)
        numbers = _NUMBERS[syscalls.MACHINE]
        requested = args[1] if number == numbers["mmap"] else args[2]
        growth = requested if number == numbers["mmap"] else max(0, args[2] - args[1])
        size, limit = _statm_bytes(self.pid), _address_limit(self.pid)
        if limit is not None and size + growth > limit and not self.over:
            self.over = (f"it asked for {requested >> 20} MiB more address space with {size >> 20} MiB "
                         f"mapped, over the {limit >> 20} MiB it may map")
        try:
            fcntl.ioctl(self.listener, _NOTIF_SEND, bytearray(_RESPONSE.pack(ident, 0, 0, _FLAG_CONTINUE)))
        except OSError:
            pass  # it died meanwhile

    def _tell(self, record: dict) -> None:
        from judge.sandbox import channel

        self.told += 1
        if self.told > MAX_RECORDS:
            return
        try:
            channel.send_frame(self.ctl, channel.MEMORY, json.dumps(record).encode())
        except OSError:
            pass


def _status_kb(pid: int, field: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _statm_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _address_limit(pid: int) -> int | None:
    """The worker's RLIMIT_AS in bytes, as /proc shows it; None when unlimited or unreadable."""
    try:
        with open(f"/proc/{pid}/limits") as f:
            for line in f:
                if line.startswith("Max address space"):
                    soft = line.split()[3]
                    return None if soft == "unlimited" else int(soft)
    except (OSError, ValueError, IndexError):
        pass
    return None
