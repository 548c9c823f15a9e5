"""Issue 21, class 4: run traceback's own `extract_stack` code (a caller the audit hook trusts)
with globals of this file's making, whose `walk_stack` is handed the caller's frame. Bounded."""
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
        print("PWNED: the harness's frame through borrowed code", flush=True)
    return x * 2
