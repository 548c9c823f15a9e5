"""judge/base/report.py: a test's state lives in fields, and the JSON report keeps its promised shape."""
from __future__ import annotations

import json

import pytest

from judge.base.report import Mistake, Report
from judge.base.report import TestResult as Result  # (not a pytest test class)
from judge.base.outcomes import Verdict

TRAP = Mistake("column_major", "patches are enumerated column-major", known=True)
GENERIC = Mistake("transposed", "`tokens` is transposed", known=False)


def test_text_joins_message_mistake_and_hint_as_users_read_them():
    test = Result("t", "hidden", Verdict.WRONG_ANSWER, "token 1 is wrong", mistake=TRAP, hint="rows first")
    assert test.text == ("token 1 is wrong\nthis matches a known mistake: patches are enumerated column-major\n"
                         "hint: rows first")
    assert Result("t", "hidden", Verdict.WRONG_ANSWER, "bad", mistake=GENERIC).text == \
        "bad\nwhat went wrong: `tokens` is transposed"
    repeated = Mistake(TRAP.name, TRAP.message, known=True, repeated=True)
    assert Result("t", "hidden", Verdict.WRONG_ANSWER, "bad", mistake=repeated).text == \
        "bad\nthe same mistake as named above"
    assert Result("t", "hidden", Verdict.WRONG_ANSWER, "", hint="rows first").text == "hint: rows first"


def test_json_keeps_the_promised_fields_and_adds_the_state():
    test = Result("t", "hidden", Verdict.WRONG_ANSWER, "token 1 is wrong", 2.0, mistake=TRAP, hint="rows first")
    data = json.loads(Report("patchify", "s.py", [test], time_ms=5.0).dumps())
    entry = data["tests"][0]
    assert {k: entry[k] for k in ("name", "group", "verdict", "time_ms")} == \
        {"name": "t", "group": "hidden", "verdict": "wrong_answer", "time_ms": 2.0}
    assert entry["message"] == test.text  # the spec's message names the trap when one is recognised
    assert entry["failure"] == "token 1 is wrong"  # and each part has a field of its own
    assert entry["mistake"] == {"name": "column_major", "message": TRAP.message, "known": True, "repeated": False}
    assert entry["hint"] == "rows first" and entry["not_attempted"] is False and entry["not_run"] is False
    plain = Result("ok", "example", Verdict.ACCEPTED).to_json()
    assert plain["mistake"] is None and plain["hint"] is None and plain["message"] == ""


def test_not_attempted_is_read_from_the_field_never_from_the_message():
    forged = [Result("t", "hidden", Verdict.RUNTIME_ERROR, "not attempted yet: the function still raises "
                     "NotImplementedError")]
    assert not Report("p", "s.py", forged).not_attempted
    flagged = [Result("t", "hidden", Verdict.RUNTIME_ERROR, "raised NotImplementedError", not_attempted=True)]
    assert Report("p", "s.py", flagged).not_attempted
    assert not Report("p", "s.py", flagged + [Result("ok", "hidden", Verdict.ACCEPTED)]).not_attempted


def test_from_json_reads_the_fields_back_and_the_message_without_them():
    tests = [Result("a", "hidden", Verdict.WRONG_ANSWER, "token 1 is wrong", 2.0, mistake=TRAP, hint="rows first"),
             Result("b", "hidden", Verdict.WRONG_ANSWER, "", 1.0, hint="rows first"),
             Result("c", "hidden", Verdict.WRONG_ANSWER, "bad", 1.0,
                    mistake=Mistake(TRAP.name, TRAP.message, known=True, repeated=True)),
             Result("d", "hidden", Verdict.RUNTIME_ERROR, "not run: the file failed to load (see the first test)",
                    not_run=True),
             Result("e", "hidden", Verdict.RUNTIME_ERROR, "raised NotImplementedError", not_attempted=True)]
    report = Report("patchify", "s.py", tests, time_ms=5.0)
    again = Report.from_json(json.loads(report.dumps()))
    assert again.tests == tests and again.to_json() == report.to_json()


def test_from_json_refuses_a_message_that_is_not_its_parts_joined():
    data = Result("a", "hidden", Verdict.WRONG_ANSWER, "wrong", mistake=TRAP, hint="rows first").to_json()
    with pytest.raises(ValueError, match="failure, mistake and hint"):
        Result.from_json({**data, "message": "wrong"})
    with pytest.raises(ValueError, match="failure, mistake and hint"):
        Result.from_json({**data, "message": "wrong\nhint: rows first"})
    with pytest.raises(ValueError, match="failure, mistake and hint"):
        Result.from_json({**data, "failure": "right"})
    with pytest.raises(ValueError, match="lacks failure"):
        Result.from_json({k: v for k, v in data.items() if k != "failure"})
    with pytest.raises(ValueError, match="wrong type"):
        Result.from_json({**data, "mistake": "column_major"})


def test_json_and_text_are_valid_utf8_whatever_the_submission_raised_or_was_named():
    """Issue 32: a lone surrogate, a bidi override and an escape sequence in a message, an output and a
    file name that is not UTF-8 are shown as escapes in the JSON report and the text report alike."""
    from judge.render import render_text

    test = Result("t", "hidden", Verdict.RUNTIME_ERROR, "raised ValueError: \ud800 \u202eKO \x1b[2J",
                  output="printed \udcff\n", details=("key '\u2066k\u2069'",))
    report = Report("patchify", "\udcffname.py", [test], warnings=["warned \ud800"])
    text = report.dumps()
    text.encode("utf-8")
    data = json.loads(text)
    assert data["submission"] == "\\xffname.py"  # a file name shows its undecodable bytes as bytes
    entry = data["tests"][0]
    assert entry["message"] == entry["failure"] == "raised ValueError: \\ud800 \\u202eKO \\x1b[2J"
    assert entry["output"] == "printed \\udcff\n" and entry["details"] == ["key '\\u2066k\\u2069'"]
    assert data["warnings"] == ["warned \\ud800"]
    assert Report.from_json(data).tests[0].text == entry["message"]  # still a report as to_json writes it
    rendered = render_text(report, verbose=True)
    rendered.encode("utf-8")
    assert "raised ValueError: \\ud800 \\u202eKO \\x1b[2J" in rendered


def test_tampering_is_always_in_the_json_and_read_back():
    honest = json.loads(Report("p", "s.py", [Result("t", "hidden", Verdict.ACCEPTED)]).dumps())
    assert honest["tampering"] == []  # present, empty, for honest code
    flagged = Report("p", "s.py", [Result("t", "hidden", Verdict.ACCEPTED)],
                     tampering=("line 3: rebinds torch.autograd.grad, an attribute of a library module",))
    data = json.loads(flagged.dumps())
    assert data["tampering"] == list(flagged.tampering) and data["verdict"] == "accepted"  # no verdict changes
    again = Report.from_json(data)
    assert again.tampering == flagged.tampering and again.to_json() == flagged.to_json()


def test_a_report_stored_before_tampering_reads_as_none():
    data = Report("p", "s.py", [Result("t", "hidden", Verdict.ACCEPTED)]).to_json()
    del data["tampering"]
    assert Report.from_json(data).tampering == ()
    with pytest.raises(ValueError, match="tampering"):
        Report.from_json({**data, "tampering": "line 1: x"})
    with pytest.raises(ValueError, match="tampering"):
        Report.from_json({**data, "tampering": [1]})


def test_tampering_is_escaped_as_everything_from_a_submission_is():
    report = Report("p", "s.py", [Result("t", "hidden", Verdict.ACCEPTED)], tampering=("judge \u202e \ud800",))
    text = report.dumps()
    text.encode("utf-8")
    assert json.loads(text)["tampering"] == ["judge \\u202e \\ud800"]
    assert report.tampering_line == ("tampering: judge \u202e \ud800 (shown to your instructor; it changes no "
                                     "verdict)")  # the line as data; each face escapes it
    assert Report("p", "s.py", []).tampering_line == ""
