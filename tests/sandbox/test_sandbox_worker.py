"""The worker's own account of tampering (worker._watch): said once, with the call after which it was seen."""
from __future__ import annotations

import builtins
import sys

import judge.base.encoding as judged_module
from judge.sandbox import worker
from judge.sandbox.worker import _watch


def test_a_judge_module_rebound_between_the_first_and_last_calls_is_said_with_the_last() -> None:
    look = _watch()
    original = judged_module.encode
    assert look(False) == []           # the first call: every module as the judge loaded it
    judged_module.encode = lambda *a, **k: b""    # rebound by a later call
    try:
        assert look(False) == []       # between first and last the modules are not walked again
        said = look(True)
        assert said == ["names of the judge's module judge.base.encoding were rebound: encode"]
        assert look(True) == []         # each finding once
    finally:
        judged_module.encode = original


def test_a_rebinding_before_the_first_result_is_said_with_it() -> None:
    look = _watch()
    original = judged_module.decode
    judged_module.decode = lambda *a, **k: None   # while loading, or in the first call
    try:
        assert look(False) == ["names of the judge's module judge.base.encoding were rebound: decode"]
    finally:
        judged_module.decode = original


def test_what_the_watch_uses_is_bound_before_the_file_loads() -> None:
    """Rebinding the module's names, `sys.gettrace` or a builtin after the watch was made (as a submission
    would, while it loads) silences nothing: a trace function left set is said, and so are the rebindings."""
    look = _watch()
    saved = worker.WATCHED, worker._watch, sys.gettrace, builtins.sorted
    worker.WATCHED = ()
    worker._watch = lambda *a, **k: (lambda last: [])
    sys.gettrace = lambda: None
    builtins.sorted = lambda *a, **k: []
    sys.settrace(lambda frame, event, arg: None)
    try:
        said = look(True)
    finally:
        sys.settrace(None)
        worker.WATCHED, worker._watch, sys.gettrace, builtins.sorted = saved
    assert "a trace or profile function was left set (sys.settrace, sys.setprofile)" in said
    assert "names of the judge's module judge.sandbox.worker were rebound: WATCHED, _watch" in said
