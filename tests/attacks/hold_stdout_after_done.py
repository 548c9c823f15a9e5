"""Issue 21, class 1: keep a copy of stdout, then block the worker's last flush after DONE.

The flush that follows DONE (the data socket is closed by then) floods 64 MiB into the
duplicated stdout and then blocks, so a judge that waits for the output pipe to close never
returns, and one that keeps reading credits what was printed after the run. Bounded: at most
64 MiB written, 60 s asleep.
"""
import os
import stat
import sys
import time

_COPY = os.dup(1)


def _channel_open():
    for fd in range(3, 64):
        try:
            if fd != _COPY and stat.S_ISSOCK(os.fstat(fd).st_mode):
                return True
        except OSError:
            pass
    return False


class _Stdout:
    """Prints as usual; once the channel is closed (after DONE), floods and blocks."""

    def __init__(self, real):
        self.real = real

    def write(self, text):
        return self.real.write(text)

    def flush(self):
        if _channel_open():
            return self.real.flush()
        chunk = b"AFTER-DONE " * (1 << 16)  # 704 KiB
        try:
            for _ in range(96):  # 66 MiB
                os.write(_COPY, chunk)
        except OSError:
            pass
        time.sleep(60)


sys.stdout = _Stdout(sys.stdout)


def double(x):
    return x * 2
