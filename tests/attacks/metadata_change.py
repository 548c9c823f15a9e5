"""Change the metadata of files the run can name but not write: mode, owner, times, extended attributes,
inode flags, on the scratch directory's parent (the fork server's), the next run's scratch directory
beside this one, the canary outside the sandbox and the problem set.

Landlock governs opening and creating files, not their metadata: a chmod 000 of the scratch directories'
parent would stop the judge's next run, a user.* attribute is a note to the next run. Bounded and
harmless: each change asked for leaves the file as it was (the same mode, owner and times; an attribute
set is removed at once), so a regression shows as PWNED, not as a damaged judge.
"""
import fcntl
import os

FS_IOC_GETFLAGS, FS_IOC_SETFLAGS = 0x80086601, 0x40086602
here = os.getcwd()
parent = os.path.dirname(here)
targets = [parent, "@CANARY@", "@CANARY@/precious/keep.txt", "@ROOT@"]
try:
    targets += [os.path.join(parent, n) for n in sorted(os.listdir(parent)) if os.path.join(parent, n) != here][:4]
except OSError:
    pass
changed = []


def _try(what, path, change, undo=None):
    try:
        change()
    except OSError:
        return
    changed.append(f"{what} {path}")
    if undo is not None:
        try:
            undo()
        except OSError:
            pass


for path in targets:
    try:
        st = os.stat(path)
    except OSError:
        continue
    _try("chmod", path, lambda: os.chmod(path, st.st_mode & 0o7777))
    _try("chown", path, lambda: os.chown(path, st.st_uid, st.st_gid))
    _try("utime", path, lambda: os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns)))
    _try("setxattr", path, lambda: os.setxattr(path, "user.judge_attack", b"1"),
         lambda: os.removexattr(path, "user.judge_attack"))
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        continue
    try:
        flags = bytearray(8)
        try:
            fcntl.ioctl(fd, FS_IOC_GETFLAGS, flags)
        except OSError:
            pass
        else:
            _try("FS_IOC_SETFLAGS", path, lambda: fcntl.ioctl(fd, FS_IOC_SETFLAGS, flags))
        _try("fchmod", path, lambda: os.fchmod(fd, st.st_mode & 0o7777))
    finally:
        os.close(fd)

if changed:
    print("PWNED", changed[:8])


def double(x):
    return x * 2
