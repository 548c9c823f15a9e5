"""Issue 21, class 4: a trace function sees every frame the harness runs, with its locals."""
import sys

seen = []


def _trace(frame, event, arg):
    seen.append(frame.f_code.co_name)
    return None


def double(x):
    sys.settrace(_trace)
    if seen:
        print("PWNED: traced", seen[:3], flush=True)
    return x * 2
