"""Class 1: pick the verdict by naming a plain exception MemoryError.

It allocates nothing: the verdict must be runtime_error, not memory_limit_exceeded.
"""


class MemoryError(Exception):  # noqa: A001 - the point of the attack
    pass


def double(x):
    raise MemoryError("out of memory (not really)")
