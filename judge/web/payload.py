"""Results and attempts as the page's JSON: the terminal report's content, split for display.

A test's message is split into what went wrong, the known mistake it
matches and the test's hint; a public example carries its inputs, expected
and actual outputs as the terminal draws them (side by side). Hidden tests
never carry values: `TestResult.shown` is None for them.
"""
from __future__ import annotations

import textwrap

from judge.render import to_text, values_lines
from judge.report import Report, TestResult

_KNOWN_MISTAKE = "this matches a known mistake: "
_HINT = "hint: "


def test_payload(test: TestResult) -> dict:
    message, diagnosis, hint = [], None, None
    for line in test.message.splitlines():
        if line.startswith(_KNOWN_MISTAKE):
            diagnosis = line[len(_KNOWN_MISTAKE):]
        elif line.startswith(_HINT):
            hint = line[len(_HINT):]
        else:
            message.append(line)
    values = None
    if test.shown is not None:
        lines, _ = values_lines(test.shown)
        values = textwrap.dedent(to_text(lines))
    return {**test.to_json(), "message": "\n".join(message), "diagnosis": diagnosis, "hint": hint,
            "values": values, "details": list(test.details)}


def report_payload(report: Report, examples_only: bool) -> dict:
    return {"verdict": report.verdict.value, "passed": report.passed, "total": report.total,
            "time_ms": round(report.time_ms, 1), "examples_only": examples_only,
            "not_attempted": report.not_attempted, "warnings": list(report.warnings),
            "output": report.output}

