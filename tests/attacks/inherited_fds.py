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
    # Exactly one socket may remain: the channel the results travel on.
    if len(beyond_stdio) != 1 or not beyond_stdio[0].startswith("socket:"):
        print("PWNED inherited", beyond_stdio)
    return x * 2
