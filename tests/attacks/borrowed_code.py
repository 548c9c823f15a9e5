"""Run traceback's own `extract_stack` code with globals of this file's making, whose `walk_stack` is
handed the caller's frame. Bounded.

Reaching it is the submission's own business in its own process: the value (3x, wrong) is compared in the judge with an expected value the child never holds, so the verdict is wrong_answer, and the reach is flagged in the report's tampering list.
"""
import sys
import traceback
import types

stolen = []


def walk_stack(frame):
    stolen.append(frame)
    return iter(())


def double(x):
    namespace = dict(vars(traceback), walk_stack=walk_stack)
    types.FunctionType(traceback.extract_stack.__code__, namespace)(None, None)
    frame = stolen[0].f_back if stolen else None
    if frame is not None and ("BUILTIN_EXCEPTIONS" in frame.f_globals or "originals" in frame.f_locals):
        print("reached the observing frame", flush=True)
    return x * 3
