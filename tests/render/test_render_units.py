"""judge/render/units.py: `judge units` and `judge unit`."""
from __future__ import annotations

from pathlib import Path

from judge.render import to_text, unit_lines, units_lines
from judge.learner.units import Completion, Question, Unit, UnitProgress


def _unit(**changes) -> Unit:
    fields = dict(id="1.0", title="Patches", summary="Cut   images\ninto patches.", problems=("patchify",),
                  extras=("unpatchify",), questions=(), completion=Completion(None, None), next="1.1",
                  path=Path("units/1.0.yaml"))
    fields.update(changes)
    return Unit(**fields)


def test_units_line_says_passed_and_counts():
    done = UnitProgress(_unit(), {"patchify": "solved"}, {})
    todo = UnitProgress(_unit(id="1.10", title="Later"), {}, {})
    assert to_text(units_lines([done, todo])).splitlines() == [
        "1.0   passed  problems 1/1  questions 0/0  Patches",
        "1.10          problems 0/1  questions 0/0  Later"]


def test_a_passed_unit_names_the_next_and_an_open_one_what_is_left():
    done = to_text(unit_lines(UnitProgress(_unit(), {"patchify": "solved"}, {}), {"patchify": "Patchify"}, 80))
    assert done.splitlines()[:2] == ["Unit 1.0: Patches", "Cut images into patches."]
    assert "   1. solved     patchify    Patchify" in done and "   2. new        unpatchify    (extra)" in done
    assert done.endswith("passed: unit 1.0 is complete\nnext: unit 1.1 (judge unit 1.1)")
    open_ = to_text(unit_lines(UnitProgress(_unit(), {}, {}), {}, 80))
    assert "left to do:" in open_ and "passed:" not in open_
