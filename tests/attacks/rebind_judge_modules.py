"""Issue 21, class 4: import the judge's modules loaded before it and rebind what the harness uses.

They are importable; the harness calls private copies of their functions (and json's), so
rebinding them changes nothing: the wrong answer (3x) stays wrong.
"""
import judge.runs.calls
import judge.base.encoding

judge.runs.calls.run_call = lambda fn, call, filename: None
judge.runs.calls.observation_plain = lambda observation: {"forged": True}
judge.base.encoding.encode = lambda *args, **kwargs: b"forged"
import json

json.JSONEncoder = None  # json.dumps looks it up on every call; the harness's encoder does not


def double(x):
    return x * 3
