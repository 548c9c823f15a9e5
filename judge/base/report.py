"""Reports: per-test results and the overall verdict, as data and as JSON.

The JSON shape is fixed by shared/spec/judge.md. Rendering for humans (the
terminal, notebooks, the web page) lives in judge.render.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from judge.base.escape import escape_name, escape_tree
from judge.base.outcomes import Verdict

# Every message is capped, so no submission can make a report large:
# a test's message, each detail line and the number of detail lines.
MAX_MESSAGE = 1500
MAX_DETAIL = 600
MAX_DETAILS = 12


NOT_RUN = "not run: the file failed to load"  # the message of every test after the first when loading failed
SAME_MISTAKE = "the same mistake as named above"  # a diagnosis already given on an earlier test
KNOWN_MISTAKE = "this matches a known mistake: "  # a trap the problem's author named
DIAGNOSIS = "what went wrong: "                    # a generic diagnosis (judge.judging.diagnose)
HINT = "hint: "
TAMPERING = "tampering: "                          # the one line that lists a report's tampering
TAMPERING_NOTE = "(shown to your instructor; it changes no verdict)"


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
    tolerance: Any = None            # judge.model.problem.Tolerance


@dataclass(frozen=True)
class Mistake:
    """The mistake a failure was recognised as: a trap the author named, a relation to the expected
    value (judge.judging.diagnose) or a slip (judge.judging.slips)."""

    name: str                 # the trap's name, the relation's function name, or the slip's `slip_...` name
    message: str
    known: bool               # a trap (a known mistake) rather than a generic diagnosis
    repeated: bool = False    # already named on an earlier test of the same report

    @property
    def line(self) -> str:
        """The line that names it under a failure message."""
        if self.repeated:
            return SAME_MISTAKE
        return f"{KNOWN_MISTAKE if self.known else DIAGNOSIS}{self.message}"

    def to_json(self) -> dict:
        return {"name": self.name, "message": self.message, "known": self.known, "repeated": self.repeated}

    @classmethod
    def from_json(cls, data: Any) -> "Mistake":
        fields = _fields(data, "mistake", {"name": str, "message": str, "known": bool, "repeated": bool})
        return cls(fields["name"], fields["message"], fields["known"], fields["repeated"])


@dataclass(frozen=True)
class TestResult:
    """One test's outcome. `message` says what failed; the state around it is kept in fields
    (filled by judge.judging.grading) rather than in the text: the mistake it matches, the test's hint,
    whether the function was not attempted yet or the test was not run. `text` joins them as
    users read them, in the terminal and in the JSON report's `message`; the JSON keeps each part
    in a field of its own too (`failure`, `mistake`, `hint`), so reading a report back parses no text."""

    name: str
    group: str
    verdict: Verdict
    message: str = ""
    time_ms: float = 0.0
    details: tuple[str, ...] = ()
    shown: Shown | None = None
    output: str = ""                  # what the submission printed during this test's calls
    mistake: Mistake | None = None
    also: tuple[Mistake, ...] = ()    # more mistakes that, with `mistake`, explain the failure together
    hint: str | None = None           # shown only for the failures it explains (`hint_when`)
    not_attempted: bool = False       # failed only because the function still raises NotImplementedError
    not_run: bool = False             # not run: the file failed to load (said on the first test)
    # The smallest input found on which the submission's value differs (judge.judging.shrink): a public example's
    # input shrunk, or a fresh one drawn like a hidden test's; shown by the faces, in the JSON as the
    # text the terminal draws (`smallest_text`, which is all a report read back from JSON has of it).
    smallest: Shown | None = None
    smallest_text: str | None = None
    cpu_ms: float = 0.0               # the CPU time its slowest call used (the clock its limit counts; 0: unknown)

    @property
    def mistakes(self) -> tuple[Mistake, ...]:
        """Every mistake named on this test: `mistake`, then those it explains the failure with."""
        return (self.mistake, *self.also) if self.mistake is not None else ()

    @property
    def text(self) -> str:
        """The whole message: what failed, then the mistakes it matches, then the hint."""
        text = self.message
        for mistake in self.mistakes:
            text = f"{text}\n{mistake.line}"
        if self.hint is not None:
            text = f"{text}\n{HINT}{self.hint}" if text else f"{HINT}{self.hint}"
        return text

    def to_json(self) -> dict:
        return {"name": self.name, "group": self.group, "verdict": self.verdict.value,
                "message": self.text, "failure": self.message, "time_ms": _finite_ms(self.time_ms),
                "cpu_ms": _finite_ms(self.cpu_ms),
                "details": list(self.details), "output": self.output,
                "mistake": self.mistake.to_json() if self.mistake is not None else None,
                "mistakes": [m.to_json() for m in self.mistakes], "hint": self.hint,
                "not_attempted": self.not_attempted, "not_run": self.not_run,
                "smallest": self.smallest_text}

    @classmethod
    def from_json(cls, data: Any) -> "TestResult":
        """The result `to_json` wrote (its example values, `shown`, are never written)."""
        fields = _fields(data, "test", {"name": str, "group": str, "verdict": str, "message": str, "failure": str,
                                        "time_ms": (int, float), "details": list, "output": str,
                                        "mistake": (dict, type(None)), "hint": (str, type(None)),
                                        "not_attempted": bool, "not_run": bool})
        if not all(type(d) is str for d in fields["details"]):
            raise ValueError("a test's details are text")
        mistake = Mistake.from_json(fields["mistake"]) if fields["mistake"] is not None else None
        # A report stored before tests had `mistakes` names at most its `mistake`.
        listed = data.get("mistakes", [] if mistake is None else [fields["mistake"]])
        if type(listed) is not list:
            raise ValueError("a test's mistakes are a list")
        mistakes = tuple(Mistake.from_json(m) for m in listed)
        if mistakes[:1] != ((mistake,) if mistake is not None else ()):
            raise ValueError("a test's mistake is the first of its mistakes")
        result = cls(name=fields["name"], group=fields["group"], verdict=_verdict(fields["verdict"]),
                     message=fields["failure"], time_ms=float(fields["time_ms"]),
                     cpu_ms=_optional_ms(data.get("cpu_ms", 0.0), "cpu_ms"),  # absent from older reports
                     details=tuple(fields["details"]), output=fields["output"], mistake=mistake, also=mistakes[1:],
                     hint=fields["hint"], not_attempted=fields["not_attempted"], not_run=fields["not_run"],
                     smallest_text=_optional_text(data.get("smallest"), "smallest"))
        if result.text != fields["message"]:
            raise ValueError("a test's message is not its failure, mistake and hint joined")
        return result


@dataclass
class Report:
    problem: str
    submission: str
    tests: list[TestResult]
    time_ms: float = 0.0
    output: str = ""                                # the submission's captured stdout/stderr
    warnings: list[str] = field(default_factory=list)
    # Where the submission's own code reached into the judge's or the interpreter's internals
    # (judge.judging.tampering): shown, never a verdict.
    tampering: tuple[str, ...] = ()
    # The part of `output` printed while the file loaded, outside every test's call (a warning raised
    # inside a call is that test's `output`, never this); None for a report read back from JSON
    # before reports said it (then nothing is shown as printed while loading).
    loading_output: str | None = None
    # The diagnosis goes on after this report was made (judge.judging.budget): a face that can show a later
    # report may wait for it. Not part of the JSON: a report stored or sent is the one it is.
    refining: bool = field(default=False, compare=False)

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
        return bool(self.tests) and all(t.verdict is not Verdict.ACCEPTED and t.not_attempted for t in self.tests)

    @property
    def tampering_line(self) -> str:
        """The one line every face shows for the report's tampering (empty when there is none), unescaped."""
        if not self.tampering:
            return ""
        return f"{TAMPERING}{'; '.join(self.tampering)} {TAMPERING_NOTE}"

    @property
    def first_failure(self) -> TestResult | None:
        return next((t for t in self.tests if t.verdict is not Verdict.ACCEPTED), None)

    def to_json(self) -> dict:
        return {"problem": self.problem, "submission": self.submission, "verdict": self.verdict.value,
                "passed": self.passed, "total": self.total, "time_ms": _finite_ms(self.time_ms),
                "tests": [t.to_json() for t in self.tests], "output": self.output, "warnings": list(self.warnings),
                "tampering": list(self.tampering), "loading_output": self.loading_output or ""}

    @classmethod
    def from_json(cls, data: Any) -> "Report":
        """The report `to_json` wrote (a stored or sent report); anything else is a ValueError.

        `verdict`, `passed` and `total` are derived from the tests, so they must agree with them. A report
        stored before reports had `tampering` has none, and one before `loading_output` says nothing of it.
        """
        fields = _fields(data, "report", {"problem": str, "submission": str, "verdict": str, "passed": int,
                                          "total": int, "time_ms": (int, float), "tests": list, "output": str,
                                          "warnings": list})
        if not all(type(w) is str for w in fields["warnings"]):
            raise ValueError("a report's warnings are text")
        tampering = fields.get("tampering", [])
        if type(tampering) is not list or not all(type(t) is str for t in tampering):
            raise ValueError("a report's tampering is a list of text")
        loading_output = fields.get("loading_output")
        if loading_output is not None and type(loading_output) is not str:
            raise ValueError("a report's loading_output is text")
        report = cls(problem=fields["problem"], submission=fields["submission"],
                     tests=[TestResult.from_json(t) for t in fields["tests"]], time_ms=float(fields["time_ms"]),
                     output=fields["output"], warnings=list(fields["warnings"]), tampering=tuple(tampering),
                     loading_output=loading_output)
        if (report.verdict.value, report.passed, report.total) != (fields["verdict"], fields["passed"], fields["total"]):
            raise ValueError("a report's verdict, passed and total disagree with its tests")
        return report

    def shown_json(self) -> dict:
        """`to_json` as the faces show it: every text escaped and the file's name shown as a name
        (judge.base.escape), so the JSON is valid UTF-8 whatever the submission printed, raised or was called."""
        return {**escape_tree(self.to_json()), "submission": escape_name(self.submission)}

    def dumps(self) -> str:
        """The `judge run --json` report."""
        return json.dumps(self.shown_json(), indent=2, allow_nan=False)  # strict JSON, always


def _optional_ms(value: Any, name: str) -> float:
    if type(value) not in (int, float) or not value >= 0:
        raise ValueError(f"a test's {name} is a number of milliseconds")
    return float(value)


def _optional_text(value: Any, what: str) -> str | None:
    if value is not None and type(value) is not str:
        raise ValueError(f"a test's {what} is text")
    return value


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
