"""Reach the observing code's namespace through the caller's frame (one line).

`sys._getframe(1).f_globals` is judge.runs.calls's namespace. Reaching it is the submission's own business in its own process: the value (3x, wrong) is compared in the judge with an expected value the child never holds, so the verdict is wrong_answer, and the reach is flagged in the report's tampering list.
"""
import sys


def double(x):
    namespace = sys._getframe(1).f_globals
    if "BUILTIN_EXCEPTIONS" in namespace:
        print("reached the observing code's namespace", flush=True)
    return x * 3
