"""Landlock: an unprivileged file-system and network allow-list for the child.

After `restrict` the process (and anything it could start) may read only the
listed read-only trees, write only in its scratch directory, make no TCP
connection and, from ABI 6 on, signal no process outside its own domain.
Descriptors opened before (the result channel) keep working.
"""
from __future__ import annotations

import ctypes
import os
from pathlib import Path

from judge.sandbox import syscalls

# Access rights by ABI version (linux/landlock.h).
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_ALL_FS_V1 = (1 << 13) - 1
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1
RULE_PATH_BENEATH = 1
CREATE_RULESET_VERSION = 1 << 0

READ = EXECUTE | READ_FILE | READ_DIR
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def abi_version() -> int:
    """The kernel's Landlock ABI (0 when Landlock is missing or disabled)."""
    try:
        return syscalls.syscall(syscalls.SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0),
                                ctypes.c_uint32(CREATE_RULESET_VERSION))
    except OSError:
        return 0


def _fs_rights(abi: int) -> int:
    rights = _ALL_FS_V1
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV
    return rights


def restrict(read_only: list[Path], read_write: list[Path], rw_files: list[Path]) -> int:
    """Confine this process; returns the ABI used. Raises OSError when unavailable."""
    abi = abi_version()
    if abi < 1:
        raise OSError(38, "Landlock is not available on this kernel")
    fs = _fs_rights(abi)
    attr = _RulesetAttr(handled_access_fs=fs,
                        handled_access_net=(NET_BIND_TCP | NET_CONNECT_TCP) if abi >= 4 else 0,
                        scoped=(SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX_SOCKET) if abi >= 6 else 0)
    size = ctypes.sizeof(_RulesetAttr) if abi >= 6 else (16 if abi >= 4 else 8)
    ruleset = syscalls.syscall(syscalls.SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(attr),
                               ctypes.c_size_t(size), ctypes.c_uint32(0))
    try:
        for paths, rights in ((read_only, READ & fs), (read_write, fs), (rw_files, FILE_RIGHTS & fs)):
            for path in paths:
                _allow(ruleset, path, rights)
        syscalls.no_new_privs()
        syscalls.syscall(syscalls.SYS_LANDLOCK_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0))
    finally:
        os.close(ruleset)
    return abi


def _allow(ruleset: int, path: Path, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a path that does not exist here needs no rule
    try:
        if not os.path.isdir(path):
            rights &= FILE_RIGHTS
        rule = _PathBeneath(allowed_access=rights, parent_fd=fd)
        syscalls.syscall(syscalls.SYS_LANDLOCK_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(RULE_PATH_BENEATH),
                         ctypes.byref(rule), ctypes.c_uint32(0))
    finally:
        os.close(fd)
