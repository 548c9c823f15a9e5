"""A course file: which problems a course grades, for how many points, from when, until when, and late.

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
  - id: self_attention
    points: 20
    due: 2027-02-15           # a date alone: the end of that day (for `opens`: its start)
    late: {per_day: 10%, until: 2027-02-22}   # each started day late costs 10% of the points; nothing after `until`
```

It is read and checked as problem files are (judge.base.yamlfile): every error at
once, each naming the file, the line, the field and what is expected. The
service stores the checked file in its database (`judge service course set`),
so every process grades by the same one. A submission's time is when it was
submitted, not when it was judged: a regrade never makes it late.
"""
from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import yaml

from judge.base.errors import ConfigError
from judge.base.yamlfile import Errors, Fields, Mapping, Sequence, type_name

CREDITS = ("per_test", "all_or_nothing")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}")
DAY_S = 86400.0


@dataclass(frozen=True)
class LateRule:
    """Credit after the due date: `per_day` of the points lost per started day late, none after `until`."""

    per_day: float               # a fraction, 0..1
    until: float | None          # seconds since the epoch; None: until nothing is left

    def factor(self, late_s: float) -> float:
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

    def counts(self, submitted_at: float) -> bool:
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
        if not self.counts(submitted_at):
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
class Course:
    name: str
    assignments: tuple[Assignment, ...]
    title: str = ""
    file: str = ""                          # where it was read from

    @property
    def points(self) -> float:
        return sum(a.points for a in self.assignments)


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
    from judge.base.yamlfile import _Loader

    try:
        data = yaml.load(text, Loader=_Loader)
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
        item.unknown({"id", "points", "credit", "opens", "due", "late"})
    if entries is not None and not entries:
        top.error("problems", "expected at least one problem")
    top.unknown({"course", "title", "timezone", "problems"})
    errors.raise_if_any()
    return Course(name, tuple(assignments), title, file)


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
    if problem is None or points is None:
        return None
    return Assignment(problem, points, credit, opens, due, late)


def _late(item: Fields, zone: dt.tzinfo, due: float | None) -> LateRule | None:
    raw = item.raw("late")
    if raw is None or raw == "none":
        return None
    if not isinstance(raw, Mapping):
        item.error("late", f"expected none or a mapping {{per_day: 10%, until: DATE}}, got {type_name(raw)}")
        return None
    if due is None:
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


def _when(fields: Fields, key: str, zone: dt.tzinfo, *, end_of_day: bool) -> float | None:
    """A date or time as seconds since the epoch: a date alone is its start (or, `end_of_day`, its end)."""
    raw = fields.raw(key)
    if raw is None:
        return None
    if isinstance(raw, dt.datetime):
        when = raw
    elif isinstance(raw, dt.date):
        when = dt.datetime.combine(raw, dt.time()) + (dt.timedelta(days=1) if end_of_day else dt.timedelta())
    elif isinstance(raw, str):
        try:
            when = dt.datetime.fromisoformat(raw.strip())
        except ValueError:
            fields.error(key, f"expected a date or time (2027-02-08, 2027-02-08 23:59, 2027-02-08T23:59+01:00), "
                              f"got {raw!r}")
            return None
        if len(raw.strip()) == 10 and end_of_day:      # 2027-02-08 as a string: a date too
            when += dt.timedelta(days=1)
    else:
        fields.error(key, f"expected a date or time, got {type_name(raw)}")
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
        lines.append(f"  {a.problem}: {', '.join(parts)}")
    return lines


def _utc(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
