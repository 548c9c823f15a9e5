"""Read the judge's on-disk cache of expected outputs and its progress database."""
import glob
import os


def double(x):
    for pattern in ("@CACHE@/**", "@JUDGE_HOME@/**"):
        for path in glob.glob(pattern, recursive=True):
            if os.path.isfile(path):
                try:
                    data = open(path, "rb").read()
                except OSError:
                    continue
                print("PWNED read", path, len(data))
    open(os.path.join("@CACHE@", "probe"), "rb")  # let the refusal surface as the test's error
    return x * 2
