"""Learn about files without opening them: stat() gives the size and time of the hidden tests, the judge's
cache and home, another submission; listing /tmp and the problem set names their files."""
import os

PATHS = ["@ROOT@/hidden_tests/double/tests.yaml", "@ROOT@/hidden_tests", "@CACHE@", "@JUDGE_HOME@",
         "@WORK@/alice.py", "@CANARY@/precious/keep.txt"]


def double(x):
    for path in PATHS:
        try:
            st = os.stat(path)
        except OSError as exc:
            print("refused:", path, exc.strerror)
        else:
            print("PWNED stat", path, st.st_size, st.st_mtime)
    for directory in ("/tmp", "@ROOT@", "@WORK@", os.path.dirname(os.getcwd())):
        try:
            names = os.listdir(directory)
        except OSError as exc:
            print("refused:", directory, exc.strerror)
        else:
            own = os.getcwd().split(os.sep)  # the way to its own working directory is no secret
            others = [n for n in names if n not in own]
            if others:
                print("PWNED listed", directory, others[:5])
    return x * 2
