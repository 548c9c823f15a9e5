"""A course file: which problems a course grades, for how many points, from when, until when, late, which
submission counts, what learners see of their reports, and who has more time.

```yaml
course: ml101
title: Vision transformers from scratch       # optional
timezone: Europe/Berlin                        # optional (default UTC): for dates written without an offset
problems:
  - id: patchify
    points: 10
    credit: per_test          # per_test (default): points x tests passed / tests; all_or_nothing: accepted only
    opens: 2027-02-01 09:00   # optional: submissions before it do not count
    due: 2027-02-08 23:59     # optional: after it, the late rule decides
    late: none                # default: nothing after the due date counts
    counts: best              # best (default): the most any counted submission earned; last: the latest's
    feedback: full            # full (default); verdict: the verdict and the tests passed, nothing of a
                              # failing test; after_due: verdict until the learner's due date, then full
  - id: self_attention
    points: 20
    due: 2027-02-15           # a date alone: the end of that day (for `opens`: its start)
    late: {per_day: 10%, until: 2027-02-22}
extensions:                   # optional: by login, per problem, a later due date or more time (3d, 36h)
  chloe.dupont: {self_attention: 2027-02-18}
  jean.dupont: {patchify: 2d, self_attention: 36h}
```

The late rule, exactly: a submission `late_s` seconds after its due date is
`days = ceil(late_s / 86400)` days late, every started day counting whole (one
second late is one day; exactly 24 hours is one day, 24 hours and a second two).
Its points are what it earned on time (points x its credit) times
`max(0, 1 - per_day x days)`: each day costs `per_day` of the points it earned
(10% of an earned 6 is 0.6), never of the problem's full points, and never below 0. Nothing
counts after `until`. An extension replaces the learner's due date (a date) or
moves it later (a duration); their `until` moves by as much, so the late rule
reads the same from their own due date. `counts: last` grades the latest
counted submission (the latest judged one made before the cut-off), whatever
it earned; a submission still being judged does not count until it is.

It is read and checked as problem files are (judge.base.yamlfile): every error at
once, each one line naming the file, the line, the field and what is expected
(an impossible date such as 2026-02-30 included). The service stores the
checked file in its database (`judge service course set`), so every process
grades by the same one. A submission's time is when it was submitted, not when
it was judged: a regrade never makes it late.
"""
from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable

import yaml

from judge.base.errors import ConfigError
from judge.base.yamlfile import Errors, Fields, Mapping, Sequence, _Loader, type_name

CREDITS = ("per_test", "all_or_nothing")
COUNTS = ("best", "last")
FEEDBACK = ("full", "verdict", "after_due")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}")
DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([dh])")
DAY_S = 86400.0
DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}")


@dataclass(frozen=True)
class LateRule:
    """Credit after the due date: `per_day` of the points lost per started day late, none after `until`."""

    per_day: float               # a fraction, 0..1
    until: float | None          # seconds since the epoch; None: until nothing is left

    def factor(self, late_s: float) -> float:
        """What a submission `late_s` seconds late keeps of what it earned (every started day counts whole)."""
        days = math.ceil(late_s / DAY_S)
        return max(0.0, 1.0 - self.per_day * days)


@dataclass(frozen=True)
class Assignment:
    """One problem of a course, as its file grades it."""

    problem: str
    points: float
    credit: str = "per_test"
    opens: float | None = None
    due: float | None = None
    late: LateRule | None = None           # None: nothing after the due date counts
    counts: str = "best"                   # best | last
    feedback: str = "full"                 # full | verdict | after_due

    def extended(self, due: float) -> "Assignment":
        """This assignment for a learner whose due date is `due` (an extension): `until` moves as far."""
        if self.due is None:
            return self
        late = self.late
        if late is not None and late.until is not None:
            late = LateRule(late.per_day, late.until + (due - self.due))
        return replace(self, due=due, late=late)

    def full_feedback(self, now: float) -> bool:
        """Whether a learner sees whole reports now (else the verdict and the tests passed only)."""
        if self.feedback == "full":
            return True
        if self.feedback == "after_due":
            return self.due is not None and now > self.due
        return False

    def graded(self, submitted_at: float) -> bool:
        """Whether a submission made at `submitted_at` is graded at all."""
        if self.opens is not None and submitted_at < self.opens:
            return False
        if self.due is None or submitted_at <= self.due:
            return True
        return self.late is not None and (self.late.until is None or submitted_at <= self.late.until)

    def late_days(self, submitted_at: float) -> int:
        if self.due is None or submitted_at <= self.due:
            return 0
        return math.ceil((submitted_at - self.due) / DAY_S)

    def score(self, submitted_at: float, verdict: str | None, passed: int | None, total: int | None) -> float | None:
        """The points a judged submission earns; None when it does not count (too early, too late)."""
        if not self.graded(submitted_at):
            return None
        if self.credit == "all_or_nothing":
            fraction = 1.0 if verdict == "accepted" else 0.0
        else:
            fraction = 1.0 if verdict == "accepted" else (passed / total if passed is not None and total else 0.0)
        factor = 1.0
        if self.due is not None and submitted_at > self.due and self.late is not None:
            factor = self.late.factor(submitted_at - self.due)
        return round(self.points * fraction * factor, 4)


@dataclass(frozen=True)
class Extension:
    """A learner's own due date on one problem."""

    login: str
    problem: str
    due: float
    line: int = 0                 # in the course file


@dataclass(frozen=True)
class Course:
    name: str
    assignments: tuple[Assignment, ...]
    title: str = ""
    file: str = ""                          # where it was read from
    extensions: tuple[Extension, ...] = ()

    @property
    def points(self) -> float:
        return sum(a.points for a in self.assignments)

    def assignment(self, problem: str, login: str | None = None) -> Assignment | None:
        """The problem's assignment as it applies to `login` (their extension, if any); None: not graded."""
        found = next((a for a in self.assignments if a.problem == problem), None)
        if found is None or login is None:
            return found
        own = next((e for e in self.extensions if e.login == login and e.problem == problem), None)
        return found.extended(own.due) if own is not None else found

    def for_learner(self, login: str) -> tuple[Assignment, ...]:
        return tuple(self.assignment(a.problem, login) for a in self.assignments)


def default_course(name: str, problems: Iterable[str]) -> Course:
    """A course without a file: every problem given, one point each, credit per test, no dates."""
    return Course(name, tuple(Assignment(p, 1.0) for p in problems))


def load_course(path: Path, problems: Iterable[str] | None = None) -> tuple[Course, str]:
    """The course in `path`, checked (against the problem ids given), and its text."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError("file not found", file=path) from None
    except IsADirectoryError:
        raise ConfigError("is a directory, expected a course file (YAML)", file=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read: {exc}", file=path) from None
    return parse_course(text, str(path), problems), text


def parse_course(text: str, file: str, problems: Iterable[str] | None = None) -> Course:
    """The course `text` (read from `file`) defines; every error at once, as a ConfigError(s)."""
    try:
        data = yaml.load(text, Loader=_CourseLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise ConfigError(f"invalid YAML: {exc.problem or exc.context or 'invalid YAML'}", file=file,
                          line=mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"invalid YAML: {exc}", file=file) from None
    errors = Errors(Path(file))
    top = Fields(data, "", errors, 1)
    name = top.get("course", str, what="the course's name (letters, digits, _.@-)",
                   check=lambda v: None if NAME.fullmatch(v) else "expected 1-64 letters, digits or _.@-")
    title = top.get("title", str, "")
    zone = _zone(top)
    known = set(problems) if problems is not None else None
    entries = top.get("problems", list, what="a list of the course's problems")
    assignments: list[Assignment] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(entries or []):
        line = entries.item_lines[index] if isinstance(entries, Sequence) else 0
        item = Fields(raw, f"problems[{index}]", errors, line)
        assignment = _assignment(item, zone, known)
        if assignment is not None:
            if assignment.problem in seen:
                item.error("id", f"{assignment.problem!r} is listed twice (also problems[{seen[assignment.problem]}])")
            seen.setdefault(assignment.problem, index)
            assignments.append(assignment)
        item.unknown({"id", "points", "credit", "opens", "due", "late", "counts", "feedback"})
    if entries is not None and not entries:
        top.error("problems", "expected at least one problem")
    extensions = _extensions(top, zone, {a.problem: a for a in assignments})
    top.unknown({"course", "title", "timezone", "problems", "extensions"})
    errors.raise_if_any()
    return Course(name, tuple(assignments), title, file, extensions)


def _extensions(top: Fields, zone: dt.tzinfo, graded: dict[str, Assignment]) -> tuple[Extension, ...]:
    """`extensions: {login: {problem: DATE or 3d / 36h}}`, each checked against the course's problems."""
    raw = top.raw("extensions")
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        top.error("extensions", f"expected a mapping of logins to {{problem: new due date or 3d}}, got "
                                f"{type_name(raw)}")
        return ()
    found = []
    for login, per_problem in raw.items():
        where = Fields(raw, "extensions", top.errors, top.line("extensions"))
        if not isinstance(login, str) or not NAME.fullmatch(login):
            where.error(login, f"{login!r}: expected a login (1-64 letters, digits or _.@-)")
            continue
        if not isinstance(per_problem, Mapping):
            where.error(login, f"expected a mapping of problems to a new due date or more time (3d, 36h), got "
                               f"{type_name(per_problem)}")
            continue
        rule = Fields(per_problem, f"extensions.{login}", top.errors, raw.line_of(login))
        for problem in per_problem:
            assignment = graded.get(problem)
            if assignment is None:
                rule.error(problem, f"no problem {problem!r} in this course's problems")
                continue
            if assignment.due is None:
                rule.error(problem, f"{problem} has no due date to extend")
                continue
            value = per_problem[problem]
            text = value.strip() if isinstance(value, str) else ""
            more = DURATION.fullmatch(text)
            if more:
                due = assignment.due + float(more.group(1)) * (DAY_S if more.group(2) == "d" else 3600.0)
            else:
                due = _when(rule, problem, zone, end_of_day=True,
                            what="a new due date (2027-02-18, 2027-02-18 12:00) or more time (3d, 36h)")
                if due is None:
                    continue
            if due <= assignment.due:
                rule.error(problem, f"expected a due date after the course's ({_utc(assignment.due)})")
                continue
            found.append(Extension(login, str(problem), due, rule.line(problem)))
    return tuple(found)


def _zone(top: Fields) -> dt.tzinfo:
    name = top.get("timezone", str, "UTC")
    if name in ("UTC", "utc", "Z"):
        return dt.timezone.utc
    try:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        top.error("timezone", f"unknown time zone {name!r}: expected a name such as UTC or Europe/Berlin")
        return dt.timezone.utc


def _assignment(item: Fields, zone: dt.tzinfo, known: set[str] | None) -> Assignment | None:
    problem = item.get("id", str, what="a problem id")
    if problem is not None and known is not None and problem not in known:
        item.error("id", f"no problem {problem!r} in the problem set (judge list shows them)")
    points = item.get("points", float, what="the problem's points (a number above 0)",
                      check=lambda v: None if v > 0 and math.isfinite(v) else "expected a number above 0")
    credit = item.get("credit", str, "per_test",
                      check=lambda v: None if v in CREDITS else f"expected one of {', '.join(CREDITS)}")
    opens = _when(item, "opens", zone, end_of_day=False)
    due = _when(item, "due", zone, end_of_day=True)
    if opens is not None and due is not None and due <= opens:
        item.error("due", "expected a time after `opens`")
    late = _late(item, zone, due)
    counts = item.get("counts", str, "best",
                      check=lambda v: None if v in COUNTS else f"expected one of {', '.join(COUNTS)}")
    feedback = item.get("feedback", str, "full",
                        check=lambda v: None if v in FEEDBACK else f"expected one of {', '.join(FEEDBACK)}")
    if feedback == "after_due" and item.raw("due") is None:
        item.error("feedback", "after_due needs a `due` date")
    if problem is None or points is None:
        return None
    return Assignment(problem, points, credit, opens, due, late, counts, feedback)


def _late(item: Fields, zone: dt.tzinfo, due: float | None) -> LateRule | None:
    raw = item.raw("late")
    if raw is None or raw == "none":
        return None
    if not isinstance(raw, Mapping):
        item.error("late", f"expected none or a mapping {{per_day: 10%, until: DATE}}, got {type_name(raw)}")
        return None
    if item.raw("due") is None:
        item.error("late", "a late rule needs a `due` date")
    rule = Fields(raw, item.field("late"), item.errors, item.line("late"))
    per_day = _percent(rule, "per_day")
    until = _when(rule, "until", zone, end_of_day=True)
    if until is not None and due is not None and until <= due:
        rule.error("until", "expected a time after `due`")
    rule.unknown({"per_day", "until"})
    return LateRule(per_day, until) if per_day is not None else None


def _percent(fields: Fields, key: str) -> float | None:
    raw = fields.raw(key)
    what = "a share of the points lost per day late (10% or 0.1)"
    if raw is None:
        fields.error(key, f"missing, expected {what}")
        return None
    value: Any = raw
    if isinstance(raw, str) and raw.strip().endswith("%"):
        try:
            value = float(raw.strip()[:-1]) / 100
        except ValueError:
            value = None
    elif isinstance(raw, (int, float)) and not isinstance(raw, bool):
        value = float(raw) / 100 if raw > 1 else float(raw)
    else:
        value = None
    if value is None or not 0 <= value <= 1:
        fields.error(key, f"expected {what}, got {raw!r}")
        return None
    return value


def _when(fields: Fields, key: str, zone: dt.tzinfo, *, end_of_day: bool,
          what: str = "a date or time (2027-02-08, 2027-02-08 23:59, 2027-02-08T23:59+01:00)") -> float | None:
    """A date or time as seconds since the epoch: a date alone is its start (or, `end_of_day`, its end).

    Dates reach here as the text written (the course loader resolves no timestamps), so an impossible one
    (2026-02-30) is an error on its line like any other."""
    raw = fields.raw(key)
    if raw is None:
        return None
    if isinstance(raw, dt.datetime):
        when = raw
    elif isinstance(raw, dt.date):
        when = dt.datetime.combine(raw, dt.time()) + (dt.timedelta(days=1) if end_of_day else dt.timedelta())
    elif isinstance(raw, str):
        text = raw.strip()
        try:
            when = dt.datetime.fromisoformat(text)
        except ValueError as exc:
            if DATE.match(text):
                fields.error(key, f"{raw!r} is no day of the calendar ({exc}): expected {what}")
            else:
                fields.error(key, f"expected {what}, got {raw!r}")
            return None
        if len(text) <= 10 and end_of_day:      # 2027-02-08: a date, its end
            when += dt.timedelta(days=1)
    else:
        fields.error(key, f"expected {what}, got {type_name(raw)}")
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=zone)
    return when.timestamp()


def course_yaml_summary(course: Course) -> list[str]:
    """What `judge service course set` says it loaded: one line per problem."""
    lines = [f"course {course.name}" + (f" ({course.title})" if course.title else "")
             + f": {len(course.assignments)} problem(s), {course.points:g} points"]
    for a in course.assignments:
        parts = [f"{a.points:g} points", a.credit.replace("_", " ")]
        if a.opens is not None:
            parts.append(f"opens {_utc(a.opens)}")
        if a.due is not None:
            parts.append(f"due {_utc(a.due)}")
            if a.late is None:
                parts.append("nothing late counts")
            else:
                parts.append(f"late: -{a.late.per_day:.0%} per day"
                             + (f" until {_utc(a.late.until)}" if a.late.until is not None else ""))
        if a.counts == "last":
            parts.append("the last submission counts")
        if a.feedback != "full":
            parts.append({"verdict": "feedback: verdict and tests passed only",
                          "after_due": "feedback: verdict and tests passed until due, then full"}[a.feedback])
        lines.append(f"  {a.problem}: {', '.join(parts)}")
    for e in course.extensions:
        lines.append(f"  extension: {e.login} on {e.problem} due {_utc(e.due)}")
    return lines


class _CourseLoader(_Loader):
    """The problem files' loader, but a date stays the text written: PyYAML's timestamp resolver raises a
    bare ValueError for an impossible one (2026-02-30), with no line; `_when` parses it and says where."""


_CourseLoader.add_constructor("tag:yaml.org,2002:timestamp",
                              lambda loader, node: loader.construct_scalar(node))


def _utc(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
