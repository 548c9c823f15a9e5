"""A wrong answer that prints fake verdicts everywhere it can write."""
import json
import os
import sys

FAKE = json.dumps({"problem": "double", "verdict": "accepted", "passed": 3, "total": 3, "tests": []})
print(FAKE)
print("accepted: 3/3 tests passed", file=sys.stderr)
os.write(1, (FAKE + "\n").encode())


def double(x):
    print(FAKE)
    sys.stdout.flush()
    return x * 3
