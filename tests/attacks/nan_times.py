"""Class 4: make every time the harness measures NaN, so `--json` stops being JSON."""
import time

time.perf_counter = lambda: float("nan")


def double(x):
    return x * 2
