"""Change the metadata of host files: the judge user's own (a 0600 file in /tmp, its cache, its home, the
problem set), the libraries' and the standard library's, the system's. chmod, utime, a user.* xattr, fchmodat2
through a raw system call and inode flags through a read-only descriptor. Each change would set what is already
there (the same mode, times and flags; an xattr removed at once), so a regression shows as PWNED, not damage."""
import ctypes
import fcntl
import os
import struct

import numpy

TARGETS = ["@CANARY@/precious/keep.txt", "@CANARY@", "@CACHE@", "@JUDGE_HOME@", "@ROOT@/hidden_tests",
           numpy.__file__, os.__file__, os.path.dirname(os.__file__), "/etc/passwd", "/usr/lib", "/"]
FS_IOC_GETFLAGS, FS_IOC_SETFLAGS = 0x80086601, 0x40086602
FCHMODAT2 = 452
AT_FDCWD = -100
libc = ctypes.CDLL(None, use_errno=True)


def _raw_fchmodat2(path, mode):
    if libc.syscall(FCHMODAT2, AT_FDCWD, path.encode(), mode, 0) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


def _same_flags(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        buffer = bytearray(4)
        fcntl.ioctl(fd, FS_IOC_GETFLAGS, buffer)
        fcntl.ioctl(fd, FS_IOC_SETFLAGS, bytes(buffer))
    finally:
        os.close(fd)


def _xattr(path):
    os.setxattr(path, "user.judge_attack", b"1")
    os.removexattr(path, "user.judge_attack")


def attempts(path):
    st = os.stat(path)
    mode = st.st_mode & 0o7777
    yield "chmod", lambda: os.chmod(path, mode)
    yield "utime", lambda: os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    yield "xattr", lambda: _xattr(path)
    yield "fchmodat2", lambda: _raw_fchmodat2(path, mode)
    yield "inode flags", lambda: _same_flags(path)


def double(x):
    for path in TARGETS:
        try:
            tries = list(attempts(path))
        except OSError as exc:
            print("unseen:", path, exc.strerror)
            continue
        for name, change in tries:
            try:
                change()
            except OSError as exc:
                print("refused:", name, path, exc.strerror)
            else:
                print("PWNED", name, path)
    return x * 2
