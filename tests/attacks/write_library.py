"""Write into a library the child imports: it is there, read-only (a read-only mount, Landlock's rules)."""
import os


def double(x):
    with open(os.__file__, "a") as f:  # the refusal surfaces as the test's error
        f.write("PWNED = True\n")
    return x * 2
