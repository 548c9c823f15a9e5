"""Break the judge for everyone after this run: set the directory that holds every run's working directory
(and the warm judge's socket directory, the cache) to mode 0 or 0777, or lock the working directory's parent."""
import os

PLACES = [os.path.dirname(os.getcwd()), "@CACHE@", "@JUDGE_HOME@", "@WORK@"]


def double(x):
    for place in PLACES:
        try:
            before = os.stat(place).st_mode & 0o7777
        except OSError as exc:
            print("unseen:", place, exc.strerror)
            continue
        for mode in (0, 0o777):
            try:
                os.chmod(place, mode)
            except OSError as exc:
                print("refused:", place, exc.strerror)
            else:
                print("PWNED chmod", oct(mode), place)
                os.chmod(place, before)  # a regression fails the test without breaking the ones after it
    return x * 2
