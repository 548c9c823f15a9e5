"""Change metadata through system calls that no library wraps yet, by number (ctypes' syscall):
fchmodat2 (452) and setxattrat (463) on the scratch directories' parent, and calls newer than any
table (470 and up), hoping a denylist of names misses them. Harmless: the mode set is the one it
has, an attribute set is removed at once.
"""
import ctypes
import os

AT_FDCWD = -100
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
parent = os.path.dirname(os.getcwd()).encode()
mode = os.stat(parent).st_mode & 0o7777
done = []


class _XattrArgs(ctypes.Structure):
    _fields_ = [("value", ctypes.c_uint64), ("size", ctypes.c_uint32), ("flags", ctypes.c_uint32)]


if libc.syscall(ctypes.c_long(452), ctypes.c_long(AT_FDCWD), parent, ctypes.c_long(mode), ctypes.c_long(0)) == 0:
    done.append("fchmodat2")
value = ctypes.create_string_buffer(b"1")
args = _XattrArgs(ctypes.addressof(value), 1, 0)
if libc.syscall(ctypes.c_long(463), ctypes.c_long(AT_FDCWD), parent, ctypes.c_long(0), b"user.judge_attack",
                ctypes.byref(args), ctypes.c_long(ctypes.sizeof(args))) == 0:
    done.append("setxattrat")
    os.removexattr(parent, "user.judge_attack")
for number in (470, 471, 480, 548):
    ctypes.set_errno(0)
    if libc.syscall(ctypes.c_long(number), 0, 0, 0, 0, 0, 0) != -1 or ctypes.get_errno() != 38:  # ENOSYS
        done.append(f"syscall {number}: errno {ctypes.get_errno()}")
if done:
    print("PWNED", done)


def double(x):
    return x * 2
