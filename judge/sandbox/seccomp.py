"""seccomp: a system-call filter that forbids starting programs, processes, sockets, ptrace, IPC, locks.

A small classic-BPF program, assembled here so that no library is needed.
Threads stay possible (torch and BLAS need them): `clone` is allowed only with
CLONE_THREAD, and `clone3`, whose flags a filter cannot read, fails with ENOSYS
so that glibc falls back to `clone`. Everything denied fails with EPERM, which
Python turns into a PermissionError the judge can report in the user's terms.

File locks and leases are state the kernel keeps on a file, seen by every process that opens it:
a lease on a system library makes every process on the host that opens it
wait for the lease-break time, and a lock on a read-only standard-library file is a channel
between two runs (or two users). `flock` is denied, and so are the `fcntl` commands that take,
test or lease a lock (record locks, open-file-description locks, F_SETLEASE); the filter reads
fcntl's command argument, every other command stays allowed. Nothing Python, numpy or torch do
in a submission's process takes a lock (the suites pass with the filter).

Landlock does not govern metadata: the child's user could change the mode, owner, times, extended
attributes or inode flags of any file it owns and can name (the scratch directories' parent, where
the mount namespace is missing). chmod, chown, utime and xattr-setting calls in every form are denied,
and so are the ioctl commands that set inode flags or versions (the filter reads ioctl's command as
fcntl's). inotify and fanotify_mark are denied: a watch sees other runs open the files it can read.
Honest submissions write no files; shutil.copy/copy2 (which set a mode and times) fail, copyfile works.

A denylist, not an allowlist: what Python, glibc, numpy, torch, OpenMP and BLAS call varies with
their versions, and a call missed would break honest runs. Calls newer than the tables (above
HIGHEST_KNOWN, Linux 6.18's last) fail with ENOSYS, as on an older kernel: none is allowed
unexamined, and libc falls back where it can.
"""
from __future__ import annotations

import ctypes
import errno
import struct

from judge.sandbox import syscalls

_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000
_RET_KILL_PROCESS = 0x80000000
_CLONE_THREAD = 0x00010000

_LD_ABS_W = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_JGT_K = 0x25
_JSET_K = 0x45
_RET_K = 0x06

# fcntl commands that take, test or lease a lock: F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK,
# F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE (the same numbers on x86_64 and aarch64).
LOCK_COMMANDS = {"F_GETLK": 5, "F_SETLK": 6, "F_SETLKW": 7, "F_OFD_GETLK": 36, "F_OFD_SETLK": 37,
                 "F_OFD_SETLKW": 38, "F_SETLEASE": 1024}

# ioctl commands that set inode flags or versions (linux/fs.h): FS_IOC_SETFLAGS, FS_IOC32_SETFLAGS,
# FS_IOC_FSSETXATTR, FS_IOC_SETVERSION, FS_IOC32_SETVERSION (the same numbers on x86_64 and aarch64).
INODE_COMMANDS = {"FS_IOC_SETFLAGS": 0x40086602, "FS_IOC32_SETFLAGS": 0x40046602, "FS_IOC_FSSETXATTR": 0x401C5820,
                  "FS_IOC_SETVERSION": 0x40087602, "FS_IOC32_SETVERSION": 0x40047602}

# Generic numbers (>= 403) are the same on every architecture (scripts/syscall.tbl and
# arch/x86/entry/syscalls/syscall_64.tbl of Linux 6.18).
_GENERIC_DENY = {"io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428,
                 "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
                 "pidfd_getfd": 438, "mount_setattr": 442, "open_tree_attr": 467,
                 # metadata (see the module's docstring)
                 "fchmodat2": 452, "setxattrat": 463, "removexattrat": 466, "file_setattr": 469}

# The last number the tables know, the same on both architectures: file_setattr (Linux 6.17; 6.18 adds
# none). Anything above it (listns, 470, from 6.19 on) fails with ENOSYS.
HIGHEST_KNOWN = 469

_ARCHES = {
    "x86_64": {
        "audit": 0xC000003E, "clone": 56, "clone3": 435, "x32_base": 0x40000000, "fcntl": 72, "ioctl": 16,
        "memfd_create": 319,
        "deny": {"execve": 59, "execveat": 322, "fork": 57, "vfork": 58, "socket": 41, "socketpair": 53,
                 "connect": 42, "bind": 49, "listen": 50, "accept": 43, "accept4": 288,
                 "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "mount": 165,
                 "umount2": 166, "pivot_root": 155, "chroot": 161, "unshare": 272, "setns": 308,
                 "bpf": 321, "perf_event_open": 298, "userfaultfd": 323, "keyctl": 250, "add_key": 248,
                 "request_key": 249, "init_module": 175, "finit_module": 313, "delete_module": 176,
                 "kexec_load": 246, "kexec_file_load": 320, "reboot": 169, "swapon": 167, "swapoff": 168,
                 "acct": 163, "syslog": 103, "settimeofday": 164, "clock_settime": 227, "mknod": 133,
                 "mknodat": 259, "personality": 135, "open_by_handle_at": 304, "name_to_handle_at": 303,
                 "fanotify_init": 300,
                 # System V IPC and POSIX message queues: a channel between runs (the IPC namespace
                 # also makes them private; this holds where namespaces are missing)
                 "shmget": 29, "shmat": 30, "shmctl": 31, "shmdt": 67, "semget": 64, "semop": 65,
                 "semctl": 66, "semtimedop": 220, "msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71,
                 "mq_open": 240, "mq_unlink": 241, "mq_timedsend": 242, "mq_timedreceive": 243,
                 "mq_notify": 244, "mq_getsetattr": 245,
                 "flock": 73,  # file locks (see the module's docstring)
                 # metadata and watches (see the module's docstring)
                 "chmod": 90, "fchmod": 91, "fchmodat": 268, "chown": 92, "fchown": 93, "lchown": 94,
                 "fchownat": 260, "utime": 132, "utimes": 235, "futimesat": 261, "utimensat": 280,
                 "setxattr": 188, "lsetxattr": 189, "fsetxattr": 190, "removexattr": 197, "lremovexattr": 198,
                 "fremovexattr": 199, "inotify_init": 253, "inotify_init1": 294, "inotify_add_watch": 254,
                 "fanotify_mark": 301},
    },
    "aarch64": {
        "audit": 0xC00000B7, "clone": 220, "clone3": 435, "x32_base": None, "fcntl": 25, "ioctl": 29,
        "memfd_create": 279,
        "deny": {"execve": 221, "execveat": 281, "socket": 198, "socketpair": 199, "connect": 203,
                 "bind": 200, "listen": 201, "accept": 202, "accept4": 242, "ptrace": 117,
                 "process_vm_readv": 270, "process_vm_writev": 271, "mount": 40, "umount2": 39,
                 "pivot_root": 41, "chroot": 51, "unshare": 97, "setns": 268, "bpf": 280,
                 "perf_event_open": 241, "userfaultfd": 282, "keyctl": 219, "add_key": 217,
                 "request_key": 218, "init_module": 105, "finit_module": 273, "delete_module": 106,
                 "kexec_load": 104, "kexec_file_load": 294, "reboot": 142, "swapon": 224, "swapoff": 225,
                 "acct": 89, "syslog": 116, "settimeofday": 170, "clock_settime": 112, "mknodat": 33,
                 "personality": 92, "open_by_handle_at": 265, "name_to_handle_at": 264,
                 "fanotify_init": 262,
                 "mq_open": 180, "mq_unlink": 181, "mq_timedsend": 182, "mq_timedreceive": 183,
                 "mq_notify": 184, "mq_getsetattr": 185, "msgget": 186, "msgctl": 187, "msgrcv": 188,
                 "msgsnd": 189, "semget": 190, "semctl": 191, "semtimedop": 192, "semop": 193, "shmget": 194,
                 "shmctl": 195, "shmat": 196, "shmdt": 197,
                 "flock": 32,
                 # the generic table has no chmod, chown, lchown, utime, utimes, futimesat, inotify_init
                 "fchmod": 52, "fchmodat": 53, "fchown": 55, "fchownat": 54, "utimensat": 88, "setxattr": 5,
                 "lsetxattr": 6, "fsetxattr": 7, "removexattr": 14, "lremovexattr": 15, "fremovexattr": 16,
                 "inotify_init1": 26, "inotify_add_watch": 27, "fanotify_mark": 263},
    },
}


def supported() -> tuple[bool, str]:
    if syscalls.MACHINE not in _ARCHES:
        return False, f"no system-call table for {syscalls.MACHINE}"
    try:
        with open("/proc/self/status") as f:
            if "Seccomp:" not in f.read():
                return False, "the kernel has no seccomp"
    except OSError:
        return False, "cannot read /proc/self/status"
    return True, ("execve, fork, sockets, ptrace, mount, namespaces, System V / POSIX-queue IPC, file locks "
                  "and leases, changing a file's mode, owner, times, extended attributes or inode flags, inotify "
                  "and fanotify watches are denied (and memfd_create where no memory cgroup counts its pages); "
                  f"calls newer than the filter's tables (above {HIGHEST_KNOWN}) fail with ENOSYS")


def audit_arch(machine: str) -> int:
    """The AUDIT_ARCH value a filter checks for `machine`'s native system calls."""
    return _ARCHES[machine]["audit"]


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k & 0xFFFFFFFF)


def denied(machine: str | None = None, deny_memfd: bool = False) -> dict[str, int]:
    """The calls the filter for `machine` denies with EPERM whatever their arguments, by name."""
    table = _ARCHES[machine or syscalls.MACHINE]
    names = {**table["deny"], **_GENERIC_DENY}
    if deny_memfd:
        names["memfd_create"] = table["memfd_create"]
    return names


def _commands(number: int, commands: dict[str, int], eperm: int) -> list[bytes]:
    """Call `number` is denied for these commands (its second argument) and allowed for every other."""
    values = sorted(commands.values())
    ops = [_op(_JEQ_K, number, jt=0, jf=2 * len(values) + 2),
           _op(_LD_ABS_W, 24)]                          # args[1] low word: the command (an unsigned int)
    for value in values:
        ops += [_op(_JEQ_K, value, jt=0, jf=1), _op(_RET_K, eperm)]
    return ops + [_op(_RET_K, _RET_ALLOW)]


def program(machine: str | None = None, deny_memfd: bool = False) -> bytes:
    """The filter for `machine` as raw sock_filter instructions; `deny_memfd` also denies
    memfd_create (where no memory cgroup counts the pages of a memfd that is never mapped)."""
    table = _ARCHES[machine or syscalls.MACHINE]
    eperm, enosys = _RET_ERRNO | errno.EPERM, _RET_ERRNO | errno.ENOSYS
    ops = [_op(_LD_ABS_W, 4),                           # arch
           _op(_JEQ_K, table["audit"], jt=1, jf=0),
           _op(_RET_K, _RET_KILL_PROCESS),              # a foreign ABI is never legitimate here
           _op(_LD_ABS_W, 0)]                           # syscall number
    if table["x32_base"] is not None:
        ops += [_op(_JGE_K, table["x32_base"], jt=0, jf=1), _op(_RET_K, eperm)]
    ops += [_op(_JGT_K, HIGHEST_KNOWN, jt=0, jf=1), _op(_RET_K, enosys)]
    for number in sorted(set(denied(machine, deny_memfd).values())):
        ops += [_op(_JEQ_K, number, jt=0, jf=1), _op(_RET_K, eperm)]
    ops += [_op(_JEQ_K, table["clone3"], jt=0, jf=1), _op(_RET_K, enosys)]
    ops += _commands(table["fcntl"], LOCK_COMMANDS, eperm)
    ops += _commands(table["ioctl"], INODE_COMMANDS, eperm)
    ops += [_op(_JEQ_K, table["clone"], jt=0, jf=3),
            _op(_LD_ABS_W, 16),                         # args[0] low word: clone flags
            _op(_JSET_K, _CLONE_THREAD, jt=1, jf=0),
            _op(_RET_K, eperm)]
    ops += [_op(_RET_K, _RET_ALLOW)]
    return b"".join(ops)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install(deny_memfd: bool = False) -> None:
    """Load the filter into this process (irreversible); raises OSError on failure."""
    code = program(deny_memfd=deny_memfd)
    buffer = ctypes.create_string_buffer(code, len(code))
    prog = _SockFprog(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    syscalls.no_new_privs()
    syscalls.prctl(syscalls.PR_SET_SECCOMP, syscalls.SECCOMP_MODE_FILTER, ctypes.addressof(prog))
