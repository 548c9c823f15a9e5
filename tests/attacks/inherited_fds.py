"""Look for descriptors inherited from the judge or the fork server beyond stdio and the channel."""
import os


def double(x):
    fds = {}
    for fd in sorted(int(fd) for fd in os.listdir("/proc/self/fd")):
        try:
            fds[fd] = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            pass  # the descriptor listdir itself used, closed by now
    print("open descriptors:", fds)
    beyond_stdio = [what for fd, what in fds.items() if fd > 2]
    # Two sockets may remain: the channel the results travel on, and the one to the run's own monitor
    # (it measures memory: judge.sandbox.memory). Both lead only to the judge's processes of this run.
    if len(beyond_stdio) != 2 or not all(what.startswith("socket:") for what in beyond_stdio):
        print("PWNED inherited", beyond_stdio)
    return x * 2
