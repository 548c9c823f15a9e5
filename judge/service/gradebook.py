"""A course's gradebook: per learner and problem the best verdict, attempts, first accepted time and points.

Every learner of the course (not the disabled or deleted) gets a row for
every problem the course grades: those its course file lists
(judge.service.course), in its order, or, without one, every problem anyone
in the course has submitted to, one point each, credit per test, no dates. So
the table is complete (attempts 0 where they have none). The best verdict is
`accepted` if any submission was accepted, else the verdict of the judged
submission that passed the most tests (the latest of equals). `points` are
what the course file's rules give (credit per test or all or nothing, nothing
before the problem opens, the late rule after the learner's own due date, an
extension included; 0 when none counts): with `counts: best` the most any
counted judged submission earned, with `counts: last` what the latest counted
judged one earned; `late_days` how late that one was. `learner` is the login,
`name` the person's name (the roster's; the login where there is none). Times are
when the submission was made (seconds since the epoch in JSON; UTC ISO 8601 in
CSV). A submission being judged again (judge.service.regrade) counts with its
previous result until the new one is stored. `tampering` lists, once each,
what the judged submissions' reports say of reaching into the judge's or the
interpreter's internals (judge.judging.tampering; a report stored before reports had
it says nothing): a reason to look, never a verdict (a list in JSON, one cell
joined by "; " in CSV, the last column).

Two forms: the long one (a row per learner and problem) and the wide one an
LMS imports (a row per learner, a column of points per problem, the total),
with Canvas's identity columns (Student: the person's name; ID: empty, Canvas's
own number, which the service does not know; SIS User ID: the roster's id;
SIS Login ID: the email, else the login; Section: the roster's section), which
Moodle maps as well (an identifier column to ID number, email or username).
Within a course no two learners share an email or an id (the roster refuses
it), so neither LMS can put one learner's grades on another. Every CSV cell goes through
judge.base.csvcells: text that could start a spreadsheet formula (a
tampering finding, a stored verdict, an email beginning with `+`) is quoted,
points stay numbers.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import asdict, dataclass

from judge.base import csvcells
from judge.base.escape import escape_controls, escape_tree
from judge.service.course import Assignment, Course, default_course, parse_course
from judge.service.storage import Store, Submission, User
from judge.judging.tampering import MAX_FINDINGS

COLUMNS = ("learner", "name", "problem", "best_verdict", "best_passed", "total", "attempts", "judged", "first_accepted_at",
           "points", "max_points", "late_days", "tampering")
IDENTITY = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")   # Canvas's; Moodle maps any column


@dataclass(frozen=True)
class Entry:
    learner: str
    problem: str
    best_verdict: str | None     # None: nothing judged yet
    best_passed: int | None      # tests the best submission passed, of `total`
    total: int | None
    attempts: int                # submissions, judged or not
    judged: int
    first_accepted_at: float | None
    points: float = 0.0              # the most a counted judged submission earned
    max_points: float = 1.0
    late_days: int | None = None     # how late the submission that earned `points` was (None: none counted)
    tampering: tuple[str, ...] = ()  # what the judged submissions' reports list, each once, oldest first
    name: str = ""                   # the person's name (the login where the roster had none)


@dataclass(frozen=True)
class WideRow:
    """One learner in the wide form: points per problem (in the course's order) and the total."""

    learner: User
    points: tuple[float, ...]
    total: float


def graded_course(store: Store, course: str, submissions: list[Submission] | None = None) -> Course:
    """The course's file as stored, or (without one) every problem its learners submitted to."""
    stored = store.course_definition(course)
    if stored is not None:
        return parse_course(stored[0], stored[1])
    if submissions is None:
        _, submissions = store.course(course)
    return default_course(course, sorted({s.problem for s in submissions}))


def gradebook(store: Store, course: str) -> list[Entry]:
    learners, submissions = store.course(course)
    graded = graded_course(store, course, submissions)
    by_pair: dict[tuple[str, str], list[Submission]] = {}
    for s in submissions:
        by_pair.setdefault((s.user, s.problem), []).append(s)
    return [_entry(learner, assignment, by_pair.get((learner.name, assignment.problem), []))
            for learner in learners for assignment in graded.for_learner(learner.name)]


def wide(store: Store, course: str) -> tuple[Course, list[WideRow]]:
    """The course and a row per learner (by name): the points of each of its problems and their total."""
    learners, submissions = store.course(course)
    graded = graded_course(store, course, submissions)
    points = {(e.learner, e.problem): e.points for e in gradebook(store, course)}
    rows = []
    for learner in learners:
        cells = tuple(points.get((learner.name, a.problem), 0.0) for a in graded.assignments)
        rows.append(WideRow(learner, cells, round(sum(cells), 4)))
    return graded, rows


def _entry(learner: User, assignment: Assignment, submissions: list[Submission]) -> Entry:
    # Judged: a stored result, also while a regrade judges it again (the previous one counts till then).
    judged = [s for s in submissions if s.report is not None]   # oldest first
    accepted = [s for s in judged if s.verdict == "accepted"]
    best = None
    if accepted:
        best = accepted[0]
    elif judged:  # max keeps the first of equals, so look from the newest
        best = max(reversed(judged), key=lambda s: _passed(s))
    tampering = dict.fromkeys(text for s in judged for text in _tampering(s))
    scored = [(score, s) for s in judged
              if (score := assignment.score(s.created_at, s.verdict, _passed(s), _total(s))) is not None]
    if assignment.counts == "last":
        top = scored[-1] if scored else None
    else:
        top = max(scored, key=lambda pair: (pair[0], -pair[1].created_at), default=None)   # the earliest of equals
    return Entry(learner.name, assignment.problem, best.verdict if best else None, _passed(best) if best else None,
                 _total(best) if best else None, len(submissions), len(judged),
                 accepted[0].created_at if accepted else None, top[0] if top else 0.0, assignment.points,
                 assignment.late_days(top[1].created_at) if top else None, tuple(tampering)[:MAX_FINDINGS],
                 learner.display)


def _passed(s: Submission) -> int:
    value = (s.report or {}).get("passed")
    return value if isinstance(value, int) else 0


def _tampering(s: Submission) -> list[str]:
    value = (s.report or {}).get("tampering")
    return [t for t in value if isinstance(t, str)] if isinstance(value, list) else []


def _total(s: Submission) -> int | None:
    value = (s.report or {}).get("total")
    return value if isinstance(value, int) else None


def gradebook_json(course: str, entries: list[Entry]) -> dict:
    # Names and verdicts are checked where they are made; the instructor's faces escape them anyway
    # (judge.base.escape), so nothing a database came to hold reaches a terminal or a spreadsheet raw.
    return escape_tree({"course": course, "entries": [asdict(e) for e in entries]})


def gradebook_csv(entries: list[Entry]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(csvcells.row(COLUMNS))
    for e in entries:
        first = (dt.datetime.fromtimestamp(e.first_accepted_at, dt.timezone.utc).isoformat(timespec="seconds")
                 if e.first_accepted_at is not None else "")
        writer.writerow(csvcells.row([e.learner, e.name, e.problem, e.best_verdict, e.best_passed, e.total, e.attempts,
                                      e.judged, first, _number(e.points), _number(e.max_points), e.late_days,
                                      "; ".join(escape_controls(t, keep="") for t in e.tampering)]))
    return out.getvalue()


def wide_csv(course: Course, rows: list[WideRow], *, points_row: bool = False) -> str:
    """The LMS's form: Canvas's identity columns, a column of points per problem, the total. Student is the
    person's name, SIS User ID the roster's id, SIS Login ID the email (else the login), Section the roster's
    section; `points_row` adds Canvas's optional "Points Possible" row (Moodle would read it as a learner)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(csvcells.row([*IDENTITY, *(a.problem for a in course.assignments), "Total"]))
    if points_row:
        writer.writerow(csvcells.row(["Points Possible", "", "", "", "",
                                      *(_number(a.points) for a in course.assignments), _number(course.points)]))
    for row in rows:
        u = row.learner
        writer.writerow(csvcells.row([u.display, "", u.student_id, u.email or u.name, u.section,
                                      *(_number(p) for p in row.points), _number(row.total)]))
    return out.getvalue()


def wide_json(course: Course, rows: list[WideRow]) -> dict:
    return escape_tree({"course": course.name, "problems": [{"id": a.problem, "points": a.points}
                                                            for a in course.assignments],
                        "max_points": course.points,
                        "rows": [{"learner": r.learner.name, "name": r.learner.display,
                                  "section": r.learner.section, "email": r.learner.email, "id": r.learner.student_id,
                                  "points": dict(zip((a.problem for a in course.assignments), r.points)),
                                  "total": r.total} for r in rows]})


def _number(value: float) -> str:
    """Points as the CSV writes them, at most 4 decimals: a numeral, which `judge.base.csvcells` leaves a number."""
    return f"{value:.4f}".rstrip("0").rstrip(".")
