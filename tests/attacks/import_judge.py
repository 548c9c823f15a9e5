"""Issue 21, class 4: import a judge module that is not loaded yet (to read or rebind its names).

A fresh import of the judge's modules by the submission ends the run. Bounded: one import.
"""
try:
    import judge.validate  # not loaded in the sandbox
    print("PWNED: imported", judge.validate.__name__, flush=True)
except ImportError:
    pass


def double(x):
    return x * 2
