"""Raise an exception whose `__class__` is a property saying ValueError, in place of a ValueError.

`isinstance(exc, ValueError)` is then true, and a judge that tells the exception by isinstance
passes the raises test; `except ValueError` in a caller would not catch it (the interpreter
matches exceptions by their real type). The judge decides on the real type's MRO: wrong_answer.
"""


class _Forged(Exception):
    @property
    def __class__(self):  # noqa: D401 - the point of the attack
        return ValueError


def double_rows(x):
    if x.ndim != 2:
        raise _Forged("x must be 2-D")
    return x * 2
