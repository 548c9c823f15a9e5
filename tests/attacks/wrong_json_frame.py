"""Class 4: a well-framed RESULT whose JSON header is a list, not an object (crashed the judge)."""
import os
import stat
import struct

payload = b"[1, 2]\n" + b"\0" * 8
frame = b"O" + struct.pack("<Q", len(payload)) + payload


def double(x):
    for fd in range(3, 64):
        try:
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                os.write(fd, frame)
        except OSError:
            pass
    return x * 2
