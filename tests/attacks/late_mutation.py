"""Keep every input and zero the kept ones in place at the start of the next call.

Each call's own argument is untouched while that call runs, so a judge that reads a call's
arguments only when its result arrives sees nothing; the caller's data is zeroed all the same.
The judge reads every earlier call's arguments again whenever a later result arrives and when
the run ends: the mutation test, one of whose inputs is zeroed by a later call, fails.
"""
import time

_kept = []


def double_rows(x):
    if _kept:
        time.sleep(0.05)  # the judge has read the previous result by now
    for old in _kept:  # the earlier calls' inputs: views on the judge's arena
        old.detach().zero_()
    _kept.append(x)
    if x.ndim != 2:
        raise ValueError("x must be 2-D")
    return x * 2
