"""Issue 21, class 4, the residual measured: the shortest forgery known after the audit hook.

A file without input validation: on a 1-D input `x.shape[1]` raises IndexError, not the
ValueError the statement asks for. Seven lines (below the marker) rewrite, in raw memory through
numpy's array interface, IndexError's MRO tuple so that LookupError's slot holds ValueError:
every IndexError is then an instance of ValueError for `isinstance`, the harness's own test.
"""
import numpy as np

# --- the forgery
class _Raw:
    def __init__(self, address, size):
        self.__array_interface__ = {"shape": (size,), "typestr": "<i8", "data": (address, False), "version": 3}


mro = np.asarray(_Raw(id(IndexError.__mro__), 3 + len(IndexError.__mro__)))  # refcount, type, size, items
mro[3 + IndexError.__mro__.index(LookupError)] = id(ValueError)
# --- end of the forgery


def double_rows(x):
    x.shape[1]  # no validation: a 1-D x raises IndexError here
    return x * 2
