"""Raw memory through numpy's array interface at an id() address: read this file's own bytes back.

Any memory of its own process is the submission's to read; nothing of the judge's is there (expected
values never enter it: memory_scan). Accepted; the raw address is flagged as tampering.
"""
import numpy as np


class _Raw:
    def __init__(self, address, size):
        self.__array_interface__ = {"shape": (size,), "typestr": "|u1", "data": (address, True), "version": 3}


def double(x):
    probe = b"judge-residual-probe"
    if probe in np.asarray(_Raw(id(probe), 96)).tobytes():
        print("read raw memory at an id() address", flush=True)
    return x * 2
