"""Issue 21, class 1: close the result channel during a call and live on without it.

A judge that waits for the channel's end, then for an exit record that never comes, extends
its deadline again and again. Bounded: 60 s asleep.
"""
import os
import stat
import time


def double(x):
    for fd in range(3, 64):
        try:
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                os.close(fd)
        except OSError:
            pass
    time.sleep(60)
    return x * 2
