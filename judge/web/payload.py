"""Results and attempts as the page's JSON: the terminal report's content, split for display.

A test's message, the known mistake it matches and the test's hint are
apart (fields of the result; other mistakes named stay lines of the message); a public example carries its inputs, expected
and actual outputs as the terminal draws them (side by side). Hidden tests
never carry values: `TestResult.shown` is None for them.
"""
from __future__ import annotations

import textwrap

from judge.render import to_text, values_lines
from judge.render.text import smallest_title
from judge.base.report import Report, TestResult
from judge.base.outcomes import Verdict


def test_payload(test: TestResult) -> dict:
    # a known mistake is shown apart (once per run, by the page); a generic diagnosis or a
    # reference to a mistake named above stays part of the message
    message = test.message.splitlines()
    diagnosis = None
    for mistake in test.mistakes:
        if diagnosis is None and mistake.known and not mistake.repeated:
            diagnosis = mistake.message
        else:
            message.append(mistake.line)
    values = None
    if test.shown is not None:
        lines, _ = values_lines(test.shown)
        values = textwrap.dedent(to_text(lines))
    smallest = None
    if test.smallest_text is not None:
        smallest = {"title": smallest_title(test), "values": textwrap.dedent(test.smallest_text)}
    return {**test.to_json(), "message": "\n".join(message), "diagnosis": diagnosis, "hint": test.hint,
            "values": values, "details": list(test.details), "smallest": smallest}


def report_payload(report: Report, examples_only: bool) -> dict:
    """The verdict and, again, every failed test: a wrong value's mistakes are named once all tests are
    judged (judge.judging.explain), after its result was streamed, so the page shows these in its place."""
    return {"failed": [test_payload(t) for t in report.tests if t.verdict is not Verdict.ACCEPTED],
            "verdict": report.verdict.value, "passed": report.passed, "total": report.total,
            "time_ms": round(report.time_ms, 1), "examples_only": examples_only,
            "not_attempted": report.not_attempted, "warnings": list(report.warnings),
            "output": report.output, "tampering": list(report.tampering), "tampering_line": report.tampering_line}

