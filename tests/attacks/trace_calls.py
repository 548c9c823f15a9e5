"""A trace function sees every frame the observing code runs, with its locals.

Reaching it is the submission's own business in its own process: the value (3x, wrong) is compared in the judge with an expected value the child never holds, so the verdict is wrong_answer, and the reach is flagged in the report's tampering list. The trace function left set is also what the child reports while it runs.
"""
import sys

seen = []


def _trace(frame, event, arg):
    seen.append(frame.f_code.co_name)
    return None


def double(x):
    sys.settrace(_trace)
    if seen:
        print("traced", seen[:3], flush=True)
    return x * 3
