"""Reach the judge's files through /proc/<pid>/root and /proc/<pid>/cwd."""
import os

ROOT = "@ROOT@"


def double(x):
    visible = [p for p in os.listdir("/proc") if p.isdigit()]
    print("visible pids:", visible[:20])
    for pid in visible:
        for via in (f"/proc/{pid}/root{ROOT}", f"/proc/{pid}/cwd"):
            try:
                text = open(f"{via}/hidden_tests/double/tests.yaml").read()
            except OSError:
                continue
            if "@MARKER@" in text:
                print("PWNED", via)
    for pid in visible:
        try:
            text = open(f"/proc/{pid}/environ", "rb").read()
        except OSError:
            continue
        if b"@SECRET@" in text:
            print("PWNED environ of", pid)
    return x * 3
