"""`judge validate`'s time aspects: what a test's limit counts, the limit derived from accepted runs,
and verdicts that would flip within the `time_limit_to_tle` safety margin.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from judge.authoring.diagnostics import Diagnostic, error, info, warning
from judge.authoring.messages import describe_failure, summarize_report
from judge.base.errors import ConfigError
from judge.base.outcomes import Verdict
from judge.base.report import Report, TestResult
from judge.base.submission import Submission
from judge.judging.session import Judge
from judge.model.problem import Problem


def used_ms(test: TestResult) -> float:
    """What a test's time limit counts: its CPU time where the backend measured it, else its wall time."""
    return test.cpu_ms or test.time_ms


def check_too_slow(judge: Judge, problem: Problem, path: Path, aspect: str, name: str) -> list[Diagnostic]:
    """A time_limit_exceeded file must time out even with the limit x time_limit_to_tle.

    One run at the raised limit tells both verdicts (as Kattis does): a call
    that times out there times out at the real limit too, and a test that
    finishes between the two limits is a verdict flipping within the margin.
    """
    limits = problem.limits
    margin = problem.margins.time_limit_to_tle
    raised = replace(problem, limits=replace(limits, time_s=limits.time_s * margin))
    try:
        report = judge.submit(raised, Submission.from_file(path, label=name), record=False)
    except ConfigError as exc:
        return [error(aspect, str(exc))]
    if report.verdict is Verdict.TIME_LIMIT_EXCEEDED:
        return [info(aspect, f"{summarize_report(report)} (limit raised to {limits.time_s * margin:g} s)")]
    between = [t for t in report.tests if used_ms(t) > limits.time_s * 1000]
    if between:
        return [warning(aspect, f"{name}: time_limit_exceeded at {limits.time_s:g} s only by a small margin: "
                                f"test {between[0].name!r} uses {used_ms(between[0]) / 1000:.2f} s of CPU "
                                f"time and it gets "
                                f"{report.verdict.value} at {limits.time_s * margin:g} s (limit x "
                                f"time_limit_to_tle {margin:g}); its verdict flips within the safety margin")]
    return [error(aspect, f"{name}: expected time_limit_exceeded, got {report.verdict.value} even at "
                          f"{limits.time_s * margin:g} s; " + describe_failure(report))]


def check_margin(problem: Problem, aspect: str, name: str, report: Report) -> list[Diagnostic]:
    """A verdict that would flip to time_limit_exceeded on a `time_limit_to_tle` times slower machine."""
    limits = problem.limits
    margin = problem.margins.time_limit_to_tle
    timed = [t for t in report.tests if t.verdict is not Verdict.TIME_LIMIT_EXCEEDED]
    if not timed:
        return []
    slowest = max(timed, key=used_ms)
    if used_ms(slowest) * margin > limits.time_s * 1000:
        return [warning(aspect, f"{name}: {report.verdict.value}, but test {slowest.name!r} uses "
                                f"{used_ms(slowest) / 1000:.2f} s of CPU time, within time_limit_to_tle "
                                f"{margin:g} of the "
                                f"{limits.time_s:g} s limit: on a slower machine it flips to time_limit_exceeded")]
    return []


def check_time_limit(problem: Problem, slowest_accepted: tuple[float, str, str] | None) -> list[Diagnostic]:
    """The time limit is at least `ac_to_time_limit` x the slowest accepted test (`slowest_accepted`: its ms,
    the submission and the test)."""
    limits = problem.limits
    aspect = f"{problem.id}.time_limit"
    if slowest_accepted is None:
        return [warning(aspect, "no accepted run to derive a time limit from")]
    ms, who, test = slowest_accepted
    derived = ms * problem.margins.ac_to_time_limit / 1000
    basis = (f"slowest accepted: {who} on test {test!r}, {ms:.1f} ms, x ac_to_time_limit "
             f"{problem.margins.ac_to_time_limit:g}")
    if derived > limits.time_s:
        return [error(aspect, f"limits.time_s = {limits.time_s:g} s is below the derived limit {derived:.3g} s "
                              f"({basis}): raise time_s or speed up the slow solution")]
    return [info(aspect, f"{limits.time_s:g} s per test; derived minimum {derived:.3g} s ({basis})")]
