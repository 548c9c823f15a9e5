"""Read another student's file from the directory being graded, which is also on the judge's sys.path.

As with `cd class/ && python -m judge grade ...` or `PYTHONPATH=class/ judge run ...`:
the directory of the submissions is an absolute sys.path entry of the judge.
"""
CLASSMATE = "@WORK@/alice.py"

try:
    LEAKED = "@CLASSMATE_SECRET@" in open(CLASSMATE).read()
except OSError:
    LEAKED = False
if LEAKED:
    print("PWNED: read a classmate's submission")


def double(x):
    return x * 3 if LEAKED else x * 2  # a wrong answer tells a batch's table that the read worked
