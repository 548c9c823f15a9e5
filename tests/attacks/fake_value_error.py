"""Class 1: raise an exception merely *named* ValueError (it derives from Exception only).

Its class even claims to live in builtins. A raises test must not accept it:
the real ValueError is not in its MRO. Correct everywhere else, so a judge that
matches exceptions by name accepts the whole file.
"""
import torch


class ValueError(Exception):  # noqa: A001 - the point of the attack
    pass


ValueError.__module__ = "builtins"


def double_rows(x):
    if x.ndim != 2:
        raise ValueError("x must be 2-D")
    return x + x
