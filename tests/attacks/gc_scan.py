"""Walk every object (gc) for the judge's own functions and rebind them where they are found.

The observing code's module is among them; rebinding its revive would hand the calls copies of their
arguments instead of views on the judge's arena. Reaching it is the submission's own business in its own process: the value (3x, wrong) is compared in the judge with an expected value the child never holds, so the verdict is wrong_answer, and the reach is flagged in the report's tampering list.
"""
import gc


def double(x):
    found = [o for o in gc.get_objects() if type(o) is dict and o.get("__name__") == "judge.runs.calls"]
    for namespace in found:
        namespace["describe_error"] = lambda *args, **kwargs: None
    return x * 3
