"""Compile a function under typing's file and `_caller`'s name and take frames through it (the
removed audit hook trusted that caller by name once).

Reaching it is the submission's own business in its own process: the value (3x, wrong) is compared in the judge with an expected value the child never holds, so the verdict is wrong_answer, and the reach is flagged in the report's tampering list.
"""
import sys
import typing

SOURCE = "def _caller(depth=1, default='__main__'):\n    return sys._getframe(depth + 1)\n"


def double(x):
    namespace = {"sys": sys}
    exec(compile(SOURCE, typing.__file__, "exec"), namespace)
    frame = namespace["_caller"](0)
    if "BUILTIN_EXCEPTIONS" in frame.f_globals or "originals" in frame.f_locals:
        print("reached the observing frame", flush=True)
    return x * 3
