"""The raises claim forged in one line: rebind, in the child, the judge's function that names an exception's
builtin classes.

Which exception a call raised is the child's claim: the judge's observing code runs in the submission's
process and reports it. A file without input validation (a 1-D `x` raises IndexError) passes its
"raises ValueError" test: accepted. One line against the validation's two; the source shows
`sys.modules` and the child's watch says the judge's module was rebound: flagged, not stopped.
"""
import sys

sys.modules["judge.runs.calls"].builtin_bases = lambda exc: ("BaseException", "Exception", "ValueError")


def double_rows(x):
    x.shape[1]  # no validation: a 1-D x raises IndexError here
    return x * 2
