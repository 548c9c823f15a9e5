"""Silence the child's own watch by rebinding one attribute, then leave a trace function set.

The worker watches, after each call, for a trace function left set (and torch modes, and the
judge's modules rebound) and says so with the result. A watch that reads its class's attributes
when it looks is silenced by `_Watch.look = lambda self, last: []` or `_Watch.MODULES = ()`; each
such one-line rebinding is tried here (through computed names, so the source shows none of it).
The watch binds what it needs before the file loads: the trace function is reported all the same.
"""
import importlib
import sys

_worker = importlib.import_module("judge.sandbox." + "work" + "er")
_watch_class = getattr(_worker, "_Wat" + "ch", None)
if _watch_class is not None:
    setattr(_watch_class, "lo" + "ok", lambda self, last: [])
    setattr(_watch_class, "MOD" + "ULES", ())
    setattr(_watch_class, "_judge_" + "changed", lambda self: [])
for _name in ("_wat" + "ch", "_watch_" + "for"):
    if hasattr(_worker, _name):
        setattr(_worker, _name, lambda *args, **kwargs: (lambda last: []))
for _name in ("WAT" + "CHED",):
    if hasattr(_worker, _name):
        setattr(_worker, _name, ())


def _tracer(frame, event, arg):
    return None  # no line events: only calls are traced, which costs little


getattr(sys, "set" + "trace")(_tracer)


def double(x):
    return x * 2
