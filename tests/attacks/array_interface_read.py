"""Issue 21, class 4, the residual: raw memory through numpy's array interface at an id() address.

Nothing audits it: an object whose `__array_interface__` names any address is an ndarray over
that memory, readable and writable. This file only reads its own bytes object back and says so
(the README names this residual; the test shows it is real, so the README stays honest).
"""
import numpy as np


class _Raw:
    def __init__(self, address, size):
        self.__array_interface__ = {"shape": (size,), "typestr": "|u1", "data": (address, True), "version": 3}


def double(x):
    probe = b"judge-residual-probe"
    if probe in np.asarray(_Raw(id(probe), 96)).tobytes():
        print("RESIDUAL: read raw memory at an id() address", flush=True)
    return x * 2
