"""Signal the parent, the judging process and every visible process.

Signal 0 performs every permission check of a real signal without delivering
one, so a sandbox regression shows up as PWNED instead of killing the test
run (or, worse, everything else on the machine).
"""
import os

JUDGE = @JUDGE_PID@


def double(x):
    try:
        visible = {int(p) for p in os.listdir("/proc") if p.isdigit()}
    except OSError:
        visible = set()  # /proc itself is out of reach; the judge's pid is known anyway
    targets = {os.getppid(), JUDGE, *visible}
    for target in sorted(targets - {0, os.getpid()}):
        try:
            os.kill(target, 0)
            print("PWNED could signal", target)
        except OSError as exc:
            print("refused:", target, exc.strerror)
    return x * 2
