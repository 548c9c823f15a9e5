"""Issue 21, class 4: reach the harness's bound namespace through the caller's frame (one line).

`sys._getframe(1).f_globals` is the harness's private namespace; rebinding which classes count
as builtin exceptions there would make any exception a ValueError. Bounded: one call.
"""
import sys


def double(x):
    namespace = sys._getframe(1).f_globals
    if "BUILTIN_EXCEPTIONS" in namespace:
        print("PWNED: the harness's namespace", flush=True)
    return x * 2
