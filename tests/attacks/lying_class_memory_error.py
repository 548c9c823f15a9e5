"""An exception whose `__class__` says MemoryError: `isinstance(exc, MemoryError)` is then true.

The class the child reports is a claim either way; no memory was measured at its limit: runtime_error.
"""


class Lying(Exception):
    @property
    def __class__(self):  # noqa: D401 - the point of the attack
        return MemoryError


def double(x):
    raise Lying("out of memory (not really)")
