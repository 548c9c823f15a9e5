"""Issue 21, class 3: hold memory in memfds that are never mapped.

Their pages are outside RLIMIT_AS and ru_maxrss; RLIMIT_FSIZE caps one memfd at 16 MiB, so it
opens many. Bounded: 60 memfds of 16 MiB, at most 960 MiB (the fixture's limit is 512 MiB); it
prints how much it holds every 64 MiB.
"""
import os
import sys

held, fds = 0, []
try:
    chunk = b"m" * (1 << 20)
    for _ in range(60):
        fd = os.memfd_create("hoard")
        fds.append(fd)
        for _ in range(16):
            os.write(fd, chunk)
            held += 1
            if held % 64 == 0:
                print(f"HELD {held} MiB", flush=True)
    print(f"PWNED: held {held} MiB outside the memory limit", flush=True)
except OSError as exc:
    print(f"stopped after {held} MiB: {exc}", file=sys.stderr)
    raise


def double(x):
    return x * 2
