"""judge/render/html.py: reports and problem lists as HTML, every text escaped."""
from __future__ import annotations

from types import SimpleNamespace

from judge.render import lines_html, problems_html, report_html
from judge.base.report import Mistake, Report
from judge.base.report import TestResult as Result  # (not a pytest test class)
from judge.base.outcomes import Verdict


def test_report_html_shows_the_mistake_and_hint_from_the_result_fields():
    mistake = Mistake("column_major", "patches are <column>-major", known=True)
    test = Result("t<1>", "hidden", Verdict.WRONG_ANSWER, "`tokens` differ", 1.0, mistake=mistake, hint="rows first")
    page = report_html(Report("patchify", "s.py", [test], time_ms=10.0), examples_only=False)
    assert "<code>t&lt;1&gt;</code>" in page
    assert ("<code>tokens</code> differ<br>this matches a known mistake: patches are &lt;column&gt;-major"
            "<br>hint: rows first") in page
    assert "0/1 tests passed in 0.01 s" in page and "(public examples only)" not in page


def test_problems_html_escapes_every_field():
    row = SimpleNamespace(status="new", id="p<x>", title="A & B", difficulty="easy", framework="torch",
                          tags=("a", "<b>"))
    page = problems_html([row])
    assert "<code>p&lt;x&gt;</code>" in page and "A &amp; B" in page and "a, &lt;b&gt;" in page


def test_lines_html_colours_styled_segments_only():
    assert lines_html([[("x ", None), ("<3", "red bold")]]) == \
        "x <span style='color:#cf222e;font-weight:bold'>&lt;3</span>"
