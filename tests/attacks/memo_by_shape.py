"""Class 3: an honest memoisation bug: results cached by input shape.

Calls share a worker, so the second call with a shape gets the first call's
result. Every call's output must be compared with the reference's.
"""
CACHE = {}


def double_rows(x):
    if x.ndim != 2:
        raise ValueError("x must be 2-D")
    key = (tuple(x.shape), x.dtype, x.requires_grad)
    if key not in CACHE:
        CACHE[key] = x * 2
    return CACHE[key]
