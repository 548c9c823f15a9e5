"""Write outside the scratch directory: next to the judge, into /tmp, into the problem set."""
import os

TARGETS = ["@CANARY@/written", "/tmp/judge-attack-written", "@ROOT@/hidden_tests/double/tests.yaml",
           "@ROOT@/problems/evil.yaml"]


def double(x):
    for path in TARGETS:
        try:
            with open(path, "a") as f:
                f.write("PWNED")
            print("PWNED wrote", path)
        except OSError as exc:
            print("refused:", path, exc)
    with open(TARGETS[0], "w") as f:  # let the refusal surface as the test's error
        f.write("PWNED")
    return x * 2
