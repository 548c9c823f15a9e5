"""Class 2: behave only when watched: modify the input unless these exact inputs were seen before.

The mutation check's call repeats the test's inputs; a submission that
recognises the repeat mutates only the first call. Every call's inputs must
be read back and checked, in an order the submission cannot predict.
"""
import hashlib

SEEN = set()


def double_rows(x):
    if x.ndim != 2:
        raise ValueError("x must be 2-D")
    key = hashlib.sha256(x.detach().numpy().tobytes()).hexdigest()
    out = x * 2
    if key not in SEEN:
        SEEN.add(key)
        with __import__("torch").no_grad():
            x.zero_()
    return out
