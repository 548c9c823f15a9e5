"""Issue 21, class 4: the audit hook lets a few standard-library functions call sys._getframe.
Pose as one: compile a function under typing's file and `_caller`'s name. Bounded: one call."""
import sys
import typing

SOURCE = "def _caller(depth=1, default='__main__'):\n    return sys._getframe(depth + 1)\n"


def double(x):
    namespace = {"sys": sys}
    exec(compile(SOURCE, typing.__file__, "exec"), namespace)
    frame = namespace["_caller"](0)
    if "BUILTIN_EXCEPTIONS" in frame.f_globals or "originals" in frame.f_locals:
        print("PWNED: the harness's frame through a forged caller", flush=True)
    return x * 2
