"""Reports: per-test results and the overall verdict, as JSON and as text.

The JSON shape is fixed by shared/spec/judge.md. Rendering for humans lives
here too, as functions from a `Report` to lines, so the CLI and the notebook
API show the same thing.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from judge.escape import escape_controls
from judge.terminal import terminal_width, use_colour  # noqa: F401 - re-exported for the faces
from judge.verdict import NOT_ATTEMPTED, Verdict

# Every message is capped, so no submission can make a report large (issue 10, class 5):
# a test's message, each detail line and the number of detail lines.
MAX_MESSAGE = 1500
MAX_DETAIL = 600
MAX_DETAILS = 12


def cap_message(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` cut to `limit` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


@dataclass(frozen=True)
class Shown:
    """A public example's values, kept for rendering only (never in the JSON report).

    `inputs` holds (name, YAML spec, drawn value); `expected` and `actual` are
    the decoded main outputs (None where the call raised; `*_error` says what).
    Hidden tests never carry one, so their values cannot be shown by mistake.
    """

    inputs: tuple[tuple[str, Any, Any], ...]
    expected: Any
    actual: Any
    expected_error: str | None = None
    actual_error: str | None = None
    tolerance: Any = None            # judge.problem.Tolerance


@dataclass(frozen=True)
class TestResult:
    name: str
    group: str
    verdict: Verdict
    message: str = ""
    time_ms: float = 0.0
    details: tuple[str, ...] = ()
    shown: Shown | None = None
    output: str = ""                  # what the submission printed during this test's calls

    def to_json(self) -> dict:
        return {"name": self.name, "group": self.group, "verdict": self.verdict.value,
                "message": self.message, "time_ms": _finite_ms(self.time_ms),
                "details": list(self.details), "output": self.output}

    @classmethod
    def from_json(cls, data: Any) -> "TestResult":
        """The result `to_json` wrote (its example values, `shown`, are never written)."""
        fields = _fields(data, "test", {"name": str, "group": str, "verdict": str, "message": str,
                                        "time_ms": (int, float), "details": list, "output": str})
        if not all(type(d) is str for d in fields["details"]):
            raise ValueError("a test's details are text")
        return cls(name=fields["name"], group=fields["group"], verdict=_verdict(fields["verdict"]),
                   message=fields["message"], time_ms=float(fields["time_ms"]), details=tuple(fields["details"]),
                   output=fields["output"])


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
    def not_attempted(self) -> bool:
        """Every test failed only because the function still raises NotImplementedError."""
        return bool(self.tests) and all(t.verdict is not Verdict.ACCEPTED and t.message.startswith(NOT_ATTEMPTED)
                                        for t in self.tests)

    @property
    def first_failure(self) -> TestResult | None:
        return next((t for t in self.tests if t.verdict is not Verdict.ACCEPTED), None)

    def to_json(self) -> dict:
        return {"problem": self.problem, "submission": self.submission, "verdict": self.verdict.value,
                "passed": self.passed, "total": self.total, "time_ms": _finite_ms(self.time_ms),
                "tests": [t.to_json() for t in self.tests], "output": self.output, "warnings": list(self.warnings)}

    @classmethod
    def from_json(cls, data: Any) -> "Report":
        """The report `to_json` wrote (a stored or sent report); anything else is a ValueError.

        `verdict`, `passed` and `total` are derived from the tests, so they must agree with them.
        """
        fields = _fields(data, "report", {"problem": str, "submission": str, "verdict": str, "passed": int,
                                          "total": int, "time_ms": (int, float), "tests": list, "output": str,
                                          "warnings": list})
        if not all(type(w) is str for w in fields["warnings"]):
            raise ValueError("a report's warnings are text")
        report = cls(problem=fields["problem"], submission=fields["submission"],
                     tests=[TestResult.from_json(t) for t in fields["tests"]], time_ms=float(fields["time_ms"]),
                     output=fields["output"], warnings=list(fields["warnings"]))
        if (report.verdict.value, report.passed, report.total) != (fields["verdict"], fields["passed"], fields["total"]):
            raise ValueError("a report's verdict, passed and total disagree with its tests")
        return report

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2, allow_nan=False)  # strict JSON, always


def _fields(data: Any, what: str, types: dict[str, type | tuple[type, ...]]) -> dict:
    """`data`'s fields, each of its type (exact: a bool is no number here)."""
    if type(data) is not dict:
        raise ValueError(f"a {what} is a JSON object")
    missing = [k for k in types if k not in data]
    if missing:
        raise ValueError(f"a {what} lacks {', '.join(missing)}")
    wrong = [k for k, kind in types.items() if type(data[k]) not in (kind if isinstance(kind, tuple) else (kind,))]
    if wrong:
        raise ValueError(f"a {what}'s {', '.join(wrong)} has the wrong type")
    return data


def _verdict(value: str) -> Verdict:
    try:
        return Verdict(value)
    except ValueError:
        raise ValueError(f"unknown verdict {value!r}") from None


def _finite_ms(ms: float) -> float:
    return round(ms, 1) if ms == ms and abs(ms) != float("inf") else 0.0


# ---------------------------------------------------------------- rendering for humans
#
# Lines are lists of (text, style) segments; `to_text` turns styles into ANSI
# colours only when asked, so the CLI, the notebook's text repr and tests share
# one renderer and colour is decided in one place (`use_colour`).

Segment = tuple[str, "str | None"]     # style: None or space-separated names from _ANSI
Line = list[Segment]

_GROUP_TITLES = {"example": "public examples", "hidden": "hidden tests", "check": "property checks"}
_ANSI = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}
_KNOWN_MISTAKE = "this matches a known mistake: "
NOT_RUN = "not run: the file failed to load"  # the message of every test after the first when loading failed
_DIAGNOSIS = "what went wrong: "     # a generic diagnosis (judge.diagnose)
SAME_MISTAKE = "the same mistake as named above"  # a diagnosis already given on an earlier test


def to_text(lines: list[Line], colour: bool = False) -> str:
    out = []
    for line in lines:
        parts = []
        for text, style in line:
            text = escape_controls(text)  # the only control sequences on screen are our colours
            if colour and style and text:
                codes = ";".join(_ANSI[name] for name in style.split() if name in _ANSI)
                parts.append(f"\x1b[{codes}m{text}\x1b[0m")
            else:
                parts.append(text)
        out.append("".join(parts).rstrip())
    return "\n".join(out)


def render_text(report: Report, *, verbose: bool = False, values: bool = False, colour: bool = False,
                width: int | None = None, note: str | None = None) -> str:
    return to_text(render(report, verbose=verbose, values=values, width=width, note=note), colour)


def terminal_output(report: Report, *, as_json: bool, verbose: bool, examples_only: bool, colour: bool,
                    width: int | None = None) -> tuple[str, str]:
    """What `judge run` prints for `report`: (stdout, stderr), wherever it was judged (here or warm);
    `width` is the terminal's (default: this process's)."""
    stderr = "".join(f"warning: {warning}\n" for warning in report.warnings)
    if as_json:
        return report.dumps() + "\n", stderr
    return render_text(report, verbose=verbose, values=examples_only, colour=colour, width=width) + "\n", stderr


DETAILED_FAILURES = 3  # failures shown in full without -v
LISTED_FAILURES = 8    # failures with a row of their own without -v; the rest are named on one line per group


def render(report: Report, *, verbose: bool = False, values: bool = False, width: int | None = None,
           note: str | None = None) -> list[Line]:
    """The per-test table, failure messages, example values and a final verdict line.

    `values` shows inputs, expected and actual outputs of every public example
    (`judge run --examples`); failing examples show them in any case. Without
    `verbose`, a wrong submission's report fits on a screen: the first few
    failures in full (values for the first that has any), a row for the next
    ones, then their names on one line; passing tests beside failures are
    counted rather than listed. Messages wrap at `width` columns (default: the
    terminal's) keeping their indentation.
    """
    if report.not_attempted:
        return _not_attempted(report)
    width = width or terminal_width()
    compact = not verbose and report.verdict is not Verdict.ACCEPTED and not values
    lines: list[Line] = []
    name_width = max((len(t.name) for t in report.tests), default=4)
    lines.append([(f"    {'test'.ljust(name_width)}  {'verdict':<7}  {'time':>10}", "dim")])
    mistakes: set[str] = set()
    failures = 0
    values_drawn = False
    abbreviated = False
    # a file that failed to load is said once, on its first test; the rest are one line at the end
    not_run = [t for t in report.tests if t.message.startswith(NOT_RUN)]
    for group, tests in _groups([t for t in report.tests if not t.message.startswith(NOT_RUN)]):
        lines.append([(f"{_GROUP_TITLES.get(group, group)}", "bold")])
        passes: list[TestResult] = []
        unlisted: list[TestResult] = []
        for test in tests:
            ok = test.verdict is Verdict.ACCEPTED
            if ok and compact:
                passes.append(test)
                continue
            lines.extend(_passes(passes, name_width))
            passes = []
            if not ok:
                failures += 1
                if compact and failures > LISTED_FAILURES:
                    unlisted.append(test)
                    continue
            lines.append(_row(test, name_width))
            if ok:
                if test.shown is not None and values:
                    lines.extend(values_lines(test.shown)[0])
                if verbose:
                    lines.extend(_printed(test, verbose))
                continue
            if compact and failures > DETAILED_FAILURES:
                abbreviated = True
                continue
            lines.extend(_message(test.message, mistakes, width))
            lines.extend(_printed(test, verbose))
            turn = values or verbose or not values_drawn  # one block of values per screen without -v
            drawn = False
            if test.shown is not None and turn:
                value_lines, drawn = values_lines(test.shown)
                lines.extend(value_lines)
                values_drawn = True
            if test.details and not drawn and turn and (verbose or test.group == "example"):
                lines.extend([(f"      {d}", "dim")] for d in test.details)
                values_drawn = True
        lines.extend(_passes(passes, name_width))
        if unlisted:
            abbreviated = True
            names = ", ".join(t.name for t in unlisted)
            lines.extend([(text, "red" if i == 0 else None)]
                         for i, text in enumerate(_wrap(f"✗ {len(unlisted)} more failed: {names}", width, "  ")))
    if not_run:
        lines.append([(f"  ✗ {len(not_run)} more tests not run: the file failed to load (see above)", "red")])
    if abbreviated:
        lines.append([(f"{failures - min(failures, DETAILED_FAILURES)} more failure(s) without details; "
                       f"-v shows every message", "dim")])
    if verbose and report.output:
        lines.append([("captured output of the submission:", "bold")])
        lines.extend([(f"  | {line}", None)] for line in report.output.splitlines()[:200])
    lines.append(_final(report, note if note is not None else ("(public examples only)" if values else "")))
    return lines


PRINTED_LINES = 5  # lines of a test's printed output shown without -v


def _printed(test: TestResult, verbose: bool) -> list[Line]:
    """What the submission printed during this test, under its row (a few lines without -v)."""
    printed = test.output.splitlines()
    if not printed:
        return []
    keep = printed if verbose else printed[:PRINTED_LINES]
    lines: list[Line] = [[("      printed:", "dim")]] + [[(f"      | {line}", "dim")] for line in keep]
    if len(keep) < len(printed):
        lines.append([(f"      | ... {len(printed) - len(keep)} more line(s); -v shows them", "dim")])
    return lines


def _groups(tests: list[TestResult]) -> list[tuple[str, list[TestResult]]]:
    groups: list[tuple[str, list[TestResult]]] = []
    for test in tests:
        if not groups or groups[-1][0] != test.group:
            groups.append((test.group, []))
        groups[-1][1].append(test)
    return groups


def _row(test: TestResult, name_width: int) -> Line:
    ok = test.verdict is Verdict.ACCEPTED
    colour = "green" if ok else "red"
    return [("  ", None), ("✓" if ok else "✗", colour), (f" {test.name.ljust(name_width)}  ", None),
            (f"{test.verdict.short:<7}", colour), (f"  {test.time_ms:7.1f} ms", "dim")]


def _passes(passes: list[TestResult], name_width: int) -> list[Line]:
    """Passing tests between failures: their own rows when few, else one counted line."""
    if len(passes) <= 2:
        return [_row(t, name_width) for t in passes]
    return [[("  ", None), ("✓", "green"), (f" {len(passes)} passed: {passes[0].name} … {passes[-1].name}", "dim")]]


def _message(message: str, mistakes: set[str], width: int = 100) -> list[Line]:
    """A failure message; a known mistake named once already is referred to, not repeated."""
    lines: list[Line] = []
    for part in message.splitlines():
        style = None
        if part.startswith((_KNOWN_MISTAKE, _DIAGNOSIS)):
            if part in mistakes:
                lines.append([("      this matches the known mistake named above", "yellow")])
                continue
            mistakes.add(part)
            style = "yellow"
        elif part == SAME_MISTAKE:
            style = "yellow"
        elif part.startswith("hint: "):
            style = "cyan"
        lines.extend([(text, style)] for text in _wrap(part, width, "      "))
    return lines


def _wrap(text: str, width: int, indent: str) -> list[str]:
    """Wrap one line of a message at `width`, continuation lines indented like the first."""
    import textwrap

    lead = text[:len(text) - len(text.lstrip())]
    return textwrap.wrap(text, width=width, initial_indent=indent, subsequent_indent=indent + lead,
                         break_long_words=False, break_on_hyphens=False) or [indent]


def values_lines(shown: Shown) -> tuple[list[Line], bool]:
    """A public example's inputs and outputs; also whether a side-by-side diff was drawn."""
    from judge.display import show_value  # numpy only when values are shown
    from judge.sidebyside import inputs_lines, outputs_lines

    indent = "      "
    lines = inputs_lines(shown.inputs, indent)
    if shown.expected_error is not None:
        yours = f"raised {shown.actual_error}" if shown.actual_error else "returned a value"
        lines.append([(f"{indent}expected: raises {shown.expected_error}; yours: {yours}", None)])
        return lines, False
    if shown.actual is None and shown.actual_error is not None:
        lines.append([(f"{indent}expected output:", "bold")])
        lines.extend([(line, None)] for line in show_value(shown.expected, indent + "  ").split("\n"))
        return lines, False
    lines.append([(f"{indent}output (yours vs expected):", "bold")])
    output_lines, drawn = outputs_lines(shown.expected, shown.actual, shown.tolerance, indent + "  ")
    return lines + output_lines, drawn


def _not_attempted(report: Report) -> list[Line]:
    return [
        [("not attempted yet: ", "yellow bold"),
         (f"all {report.total} tests stop at `raise NotImplementedError`.", None)],
        [("Replace it with your solution, then try the public examples first:", None)],
        [(f"    judge run {report.problem} {report.submission} --examples", "cyan")],
        _final(report, "(not attempted yet)"),
    ]


def _final(report: Report, note: str) -> Line:
    verdict = report.verdict
    ok = verdict is Verdict.ACCEPTED
    text = f"{verdict.value}: {report.passed}/{report.total} tests passed in {report.time_ms / 1000:.2f} s"
    return [("✓ " if ok else "✗ ", "green" if ok else "red"), (text, ("green" if ok else "red") + " bold"),
            (f" {note}" if note else "", "dim")]
