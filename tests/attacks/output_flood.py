"""Print 64 MiB (bounded) to drown the judge."""
import sys

LINE = "flood " * 1000 + "\n"


def double(x):
    for _ in range((64 << 20) // len(LINE)):
        sys.stdout.write(LINE)
    return x * 2
