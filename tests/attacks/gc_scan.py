"""Issue 21, class 4: find the harness's objects among every object (gc)."""
import gc


def double(x):
    found = [o for o in gc.get_objects() if type(o).__name__ == "SimpleNamespace" and hasattr(o, "run_call")]
    if found:
        print("PWNED: the bound harness", flush=True)
    return x * 2
