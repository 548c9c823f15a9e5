"""Leave a mark for a later run where both can see it: an extended attribute on a directory every run sees
(site-packages, the standard library, the parent of the working directory, /tmp), or a file beside the working
directory. A later run (or this one, judged again) that finds the mark prints PWNED."""
import os
import sys

MARK = "user.judge_channel"
PLACES = [os.path.dirname(os.__file__), os.path.dirname(os.path.dirname(__import__("numpy").__file__)),
          os.path.dirname(os.getcwd()), "/tmp", "/"]


def double(x):
    for place in PLACES:
        try:
            print("PWNED found", place, os.getxattr(place, MARK))
        except OSError:
            pass
        try:
            os.setxattr(place, MARK, b"hello")
            print("PWNED set", place)
        except OSError as exc:
            print("refused:", place, exc.strerror)
        try:
            with open(os.path.join(place, "judge_channel_mark"), "x"):
                print("PWNED wrote", place)
        except OSError as exc:
            print("refused:", place, exc.strerror)
    return x * 2
