"""Rebind logging's `_is_internal_frame`, which findCaller hands each frame above a log call.
Bounded: one call.

Reaching it is the submission's own business in its own process: the value (3x, wrong) is compared in the judge with an expected value the child never holds, so the verdict is wrong_answer, and the reach is flagged in the report's tampering list.
"""
import logging

real = logging._is_internal_frame


def spy(frame):
    if "BUILTIN_EXCEPTIONS" in frame.f_globals or "originals" in frame.f_locals:
        print("reached the observing frame", flush=True)
    return real(frame)


def double(x):
    logging._is_internal_frame = spy
    logging.warning("doubling")
    return x * 3
