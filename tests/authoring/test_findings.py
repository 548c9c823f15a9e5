"""judge/authoring/findings.py: `judge validate`'s findings as terminal lines."""
from __future__ import annotations

from judge.authoring.findings import validation_lines
from judge.render import to_text
from judge.authoring.diagnostics import Diagnostic, ProblemValidation, Severity


def test_identical_errors_of_several_aspects_collapse_when_rendered():
    checked = ProblemValidation("p", [Diagnostic(f"p.submissions.wrong_answer.f{i}", Severity.ERROR, "same")
                                      for i in range(6)])
    lines = to_text(validation_lines(checked)).splitlines()
    assert lines[0] == ("  ERROR p.submissions.wrong_answer.f0 (also p.submissions.wrong_answer.f1, "
                        "p.submissions.wrong_answer.f2, p.submissions.wrong_answer.f3 and 2 more): same")
    assert len(lines) == 2 and "6 error(s)" in lines[1]


def test_warnings_and_ok_lines_and_colours():
    checked = ProblemValidation("p", [Diagnostic("p.a", Severity.WARNING, "careful"),
                                      Diagnostic("p.b", Severity.INFO, "fine")])
    assert to_text(validation_lines(checked)).splitlines() == \
        ["  WARN  p.a: careful", "p: valid (0 error(s), 1 warning(s), 0.0 s)"]
    assert "  ok    p.b: fine" in to_text(validation_lines(checked, verbose=True))
    assert to_text(validation_lines(checked), colour=True).splitlines()[0] == "\x1b[33m  WARN  p.a: careful\x1b[0m"
