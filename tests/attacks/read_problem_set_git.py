"""Read the problem set's .git directory: its history holds every hidden test ever committed."""
GIT_CONFIG = "@ROOT@/.git/config"

try:
    LEAKED = "@MARKER@" in open(GIT_CONFIG).read()
except OSError:
    LEAKED = False
if LEAKED:
    print("PWNED: read the problem set's .git")


def double(x):
    return x * 2
