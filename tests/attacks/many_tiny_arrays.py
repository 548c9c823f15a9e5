"""Class 5: a result of many tiny arrays: a few MB on the wire, far more once decoded.

Bounded to 60,000 one-byte arrays per call (about 4 MB of header): today's judge
decodes every one into its own object.
"""
import numpy as np

TINY = [np.zeros(1, dtype=np.uint8)] * 60_000


def double(x):
    return TINY
