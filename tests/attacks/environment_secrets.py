"""Look for the judge's environment secrets everywhere a process can look."""
import os


def double(x):
    places = {"os.environ": repr(dict(os.environ)).encode()}
    for path in ("/proc/self/environ", "/proc/1/environ"):
        try:
            places[path] = open(path, "rb").read()
        except OSError:
            pass
    for where, text in places.items():
        for secret in (b"@SECRET@", b"@KEPT_SECRET@"):
            if secret in text:
                print("PWNED", where)
    print("environment:", sorted(os.environ))
    return x * 3
