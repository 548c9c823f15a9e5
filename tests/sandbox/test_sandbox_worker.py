"""The worker's own account of tampering (worker._Watch): said once, with the call after which it was seen."""
from __future__ import annotations

import judge.base.encoding as judged_module
from judge.sandbox.worker import _Watch


def test_a_judge_module_rebound_between_the_first_and_last_calls_is_said_with_the_last() -> None:
    watch = _Watch()
    original = judged_module.encode
    assert watch.look(last=False) == []           # the first call: every module as the judge loaded it
    judged_module.encode = lambda *a, **k: b""    # rebound by a later call
    try:
        assert watch.look(last=False) == []       # between first and last the modules are not walked again
        said = watch.look(last=True)
        assert said == ["names of the judge's module judge.base.encoding were rebound: encode"]
        assert watch.look(last=True) == []         # each finding once
    finally:
        judged_module.encode = original


def test_a_rebinding_before_the_first_result_is_said_with_it() -> None:
    watch = _Watch()
    original = judged_module.decode
    judged_module.decode = lambda *a, **k: None   # while loading, or in the first call
    try:
        assert watch.look(last=False) == ["names of the judge's module judge.base.encoding were rebound: decode"]
    finally:
        judged_module.decode = original
