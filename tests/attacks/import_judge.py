"""Import the judge's own problem-set reader (not loaded in the sandbox) and read the hidden tests with it.

Importing the judge is no harm: its code is readable, like any installed library. The hidden tests are
not: the mount namespace and Landlock keep the problem set out of the child, whoever reads it. The
read fails (the judge's reader says it cannot read the file: a runtime error); the import is flagged
as tampering.
"""
from pathlib import Path

import judge.problemset  # noqa: F401 - the judge's own reader, imported afresh in the child
from judge.base.yamlfile import load_yaml

TESTS = Path("@ROOT@/hidden_tests/double/tests.yaml")


def double(x):
    tests = load_yaml(TESTS)
    print("PWNED: the hidden tests", str(tests)[:200], flush=True)
    return x * 2
