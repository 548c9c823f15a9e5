"""Class 4: tell the judge it is DONE before any result, so it blames itself (judge_error)."""
import os
import stat
import struct

for fd in range(3, 64):
    try:
        if stat.S_ISSOCK(os.fstat(fd).st_mode):
            os.write(fd, b"D" + struct.pack("<Q", 0))
    except OSError:
        pass


def double(x):
    return x * 2
