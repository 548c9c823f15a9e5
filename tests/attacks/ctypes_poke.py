"""Issue 21, class 4: read raw memory through ctypes (any object, at its id())."""
import ctypes


def double(x):
    word = ctypes.c_ssize_t.from_address(id(x)).value  # the reference count of x
    if word > 0:
        print("PWNED: raw memory", flush=True)
    return x * 2
