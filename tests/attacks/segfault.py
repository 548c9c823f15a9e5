"""Crash the interpreter with a segmentation fault (reading address 8 through numpy's array interface)."""
import numpy as np


class _Null:
    __array_interface__ = {"shape": (1,), "typestr": "|u1", "data": (8, True), "version": 3}


def double(x):
    print(np.asarray(_Null())[0])
    return x * 2
