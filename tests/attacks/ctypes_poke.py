"""Read raw memory through ctypes (any object, at its id()).

Reaching it is the submission's own business in its own process: the value (3x, wrong) is compared in the judge with an expected value the child never holds, so the verdict is wrong_answer, and the reach is flagged in the report's tampering list.
"""
import ctypes


def double(x):
    word = ctypes.c_ssize_t.from_address(id(x)).value  # the reference count of x
    if word > 0:
        print("read raw memory", flush=True)
    return x * 3
