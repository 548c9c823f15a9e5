"""Reports: per-test results and the overall verdict, as JSON and as text.

The JSON shape is fixed by shared/spec/judge.md. Rendering for humans lives
here too, as functions from a `Report` to lines, so the CLI and the notebook
API show the same thing.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from judge.verdict import Verdict


@dataclass(frozen=True)
class TestResult:
    name: str
    group: str
    verdict: Verdict
    message: str = ""
    time_ms: float = 0.0
    details: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"name": self.name, "group": self.group, "verdict": self.verdict.value,
                "message": self.message, "time_ms": round(self.time_ms, 1)}


@dataclass
class Report:
    problem: str
    submission: str
    tests: list[TestResult]
    time_ms: float = 0.0
    output: str = ""                                # the submission's captured stdout/stderr
    warnings: list[str] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(t.verdict is Verdict.ACCEPTED for t in self.tests)

    @property
    def total(self) -> int:
        return len(self.tests)

    @property
    def verdict(self) -> Verdict:
        for test in self.tests:
            if test.verdict is not Verdict.ACCEPTED:
                return test.verdict
        return Verdict.ACCEPTED if self.tests else Verdict.JUDGE_ERROR

    @property
    def accepted(self) -> bool:
        return self.verdict is Verdict.ACCEPTED

    @property
    def first_failure(self) -> TestResult | None:
        return next((t for t in self.tests if t.verdict is not Verdict.ACCEPTED), None)

    def to_json(self) -> dict:
        return {"problem": self.problem, "submission": self.submission, "verdict": self.verdict.value,
                "passed": self.passed, "total": self.total, "time_ms": round(self.time_ms, 1),
                "tests": [t.to_json() for t in self.tests]}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2)


def render_lines(report: Report, verbose: bool = False) -> list[tuple[str, str | None]]:
    """(text, colour) lines for a terminal; colour None means plain."""
    lines: list[tuple[str, str | None]] = []
    width = max((len(t.name) for t in report.tests), default=10)
    group = None
    for test in report.tests:
        if test.group != group:
            group = test.group
            lines.append((f"{_GROUP_TITLES.get(group, group)}:", "bold"))
        ok = test.verdict is Verdict.ACCEPTED
        mark = "✓" if ok else "✗"
        text = f"  {mark} {test.name.ljust(width)}  {test.verdict.short:<3}  {test.time_ms:7.1f} ms"
        lines.append((text, "green" if ok else "red"))
        if not ok and test.message:
            for i, part in enumerate(test.message.splitlines()):
                lines.append((f"      {part}", None))
        if not ok and (verbose or test.group == "example"):
            lines.extend((f"      {d}", None) for d in test.details)
    if verbose and report.output:
        lines.append(("captured output of the submission:", "bold"))
        lines.extend((f"  | {line}", None) for line in report.output.splitlines()[:200])
    verdict = report.verdict
    colour = "green" if verdict is Verdict.ACCEPTED else "red"
    lines.append((f"{verdict.value}: {report.passed}/{report.total} tests passed in {report.time_ms / 1000:.2f} s",
                  colour))
    return lines


_GROUP_TITLES = {"example": "public examples", "hidden": "hidden tests", "check": "property checks"}
