"""Issue 21, class 2: take a lease or a lock on a file the run can read.

A write lease on a system library (owned by root, so any root judge's child owns it) makes every
process of the host that opens the library wait up to lease-break-time; a lock on a read-only
standard-library file is a message to a concurrent run. Bounded: a lock or lease that is granted
is released at once (a regression must not stall the host), a few dozen files are tried.
"""
import fcntl
import os
import struct
import sys
import sysconfig

F_OFD_SETLK = 37
_CANDIDATES = [os.__file__, fcntl.__file__ if hasattr(fcntl, "__file__") else os.__file__, sys.executable,
               os.path.join(sysconfig.get_paths()["purelib"], "numpy", "__init__.py"), "/etc/ld.so.cache"]
_CANDIDATES += [os.path.join("/usr/lib/x86_64-linux-gnu", n) for n in ("libc.so.6", "libm.so.6")]
_CANDIDATES += [os.path.join(os.path.dirname(os.__file__), n) for n in sorted(os.listdir(os.path.dirname(os.__file__)))[:20]]
granted = []


def _try(path):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        for what, take, release in (
                ("write lease", lambda: fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK),
                 lambda: fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)),
                ("read lease", lambda: fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK),
                 lambda: fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)),
                ("flock", lambda: fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB),
                 lambda: fcntl.flock(fd, fcntl.LOCK_UN)),
                ("record lock", lambda: fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB),
                 lambda: fcntl.lockf(fd, fcntl.LOCK_UN)),
                ("OFD lock", lambda: fcntl.fcntl(fd, F_OFD_SETLK, struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 0, 0)),
                 lambda: fcntl.fcntl(fd, F_OFD_SETLK, struct.pack("hhqqi", fcntl.F_UNLCK, 0, 0, 0, 0)))):
            try:
                take()
            except OSError:
                continue
            granted.append(f"{what} on {path}")
            try:
                release()
            except OSError:
                pass
    finally:
        os.close(fd)


for candidate in _CANDIDATES:
    _try(candidate)
if granted:
    print("PWNED", granted[:5])


def double(x):
    return x * 2
