"""Watch files the run can read: an inotify watch on the scratch directories' parent sees every other run
start and end, one on a library directory sees other processes open its files (a channel between runs).
Bounded: one inotify descriptor, a few watches, closed at once.
"""
import ctypes
import os
import sysconfig

IN_ALL_EVENTS = 0xFFF
libc = ctypes.CDLL(None, use_errno=True)
paths = [os.path.dirname(os.getcwd()), os.path.dirname(os.__file__), sysconfig.get_paths()["purelib"], "/"]
watched = []
fd = libc.inotify_init1(0)
if fd >= 0:
    for path in paths:
        if libc.inotify_add_watch(fd, path.encode(), IN_ALL_EVENTS) >= 0:
            watched.append(path)
    os.close(fd)
    print("PWNED: an inotify descriptor", watched)


def double(x):
    return x * 2
