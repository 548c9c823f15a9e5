"""Cells of a CSV file the judge writes: never a formula, whoever chose the text.

A CSV file the judge writes (`judge grade --csv`, the service's gradebooks, a
roster's tokens) is opened in a spreadsheet, where a cell beginning with `=`,
`+`, `-` or `@` is read as a formula (`=HYPERLINK(...)` sends what the sheet
holds elsewhere, `=cmd|' /C calc'!A0` runs a program through DDE), and one
beginning with a tab or carriage return can hide such a start. The text comes
from untrusted places: the names of submitted files, learners' names and
emails, what a sandboxed child reports (its tampering findings, its messages).

The rule, OWASP's for CSV injection: a text cell beginning with one of those
six characters is written with a single quote before it (`'=HYPERLINK(...)`),
which a spreadsheet shows as text and a reader of the file sees plainly. Its
hidden characters are escaped first (`judge.base.escape`, nothing kept: a
newline or tab inside a cell reads `\\n`, `\\t`), so a tab or carriage return
never reaches a cell raw; a cell that began with one begins with its escape
(`\\t=1+1`), and is quoted all the same (`'\\t=1+1`), whether it was escaped
here or by the face before (escaping is idempotent, so the two cannot be told
apart; text that begins with a backslash and t or r is quoted too, harmlessly).

Numbers stay numbers:

- an `int` or finite `float` the judge computed (passed tests, a time, a
  score of -1.5) is written as Python writes it, unquoted (`-inf` is text);
- a `str` that is exactly a plain decimal numeral, optionally negative
  (`-1.5`, `-3`, `0.25`, as the gradebook formats its points), is a number the
  judge wrote as text and is left as it is: such a numeral is never a formula,
  and quoting it would turn a negative score into text in the LMS. Any other
  text beginning with `-` (`-1+2`, `-cmd|...`, `- 1`, `-1e5`, `-.5`) is quoted,
  and so is a numeral beginning with `+`.

`None` is an empty cell. Every writer of a CSV file in `judge/` passes its
rows through `row` (a test looks for writers that do not).
"""
from __future__ import annotations

import math
import re
from typing import Any, Iterable

from judge.base.escape import escape_controls

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# As the cell is written: a tab or carriage return is escaped first (a face may have escaped it already),
# and the cell it began is quoted all the same.
_STARTS = ("=", "+", "-", "@", "\\t", "\\r")
_NUMERAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def cell(value: Any) -> Any:
    """`value` as a CSV cell: numbers as they are, text escaped and, if it could start a formula, quoted."""
    if value is None:
        return ""
    if isinstance(value, int) or (isinstance(value, float) and math.isfinite(value)):
        return value   # bool is an int: True/False, no formula either; -inf would read as one (=-inf)
    text = escape_controls(str(value), keep="")
    if text.startswith(_STARTS) and not _NUMERAL.fullmatch(text):
        return "'" + text
    return text


def row(values: Iterable[Any]) -> list[Any]:
    """Every value of a row as a cell (`cell`)."""
    return [cell(v) for v in values]


def record(values: dict[str, Any]) -> dict[str, Any]:
    """A `csv.DictWriter` row with every value as a cell (`cell`); the keys are the writer's own columns."""
    return {k: cell(v) for k, v in values.items()}
