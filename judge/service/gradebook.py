"""A course's gradebook: per learner and problem, the best verdict, attempts and first accepted time.

Every learner of the course gets a row for every problem anyone in the course
has submitted to, so the table is complete (attempts 0 where they have none).
The best verdict is `accepted` if any submission was accepted, else the
verdict of the judged submission that passed the most tests (the latest of
equals). Times are when the submission was made (seconds since the epoch in
JSON; UTC ISO 8601 in CSV). `tampering` lists, once each, what the judged
submissions' reports say of reaching into the judge's or the interpreter's
internals (judge.tampering; a report stored before reports had it says
nothing): a reason to look, never a verdict (a list in JSON, one cell joined by
"; " in CSV, the last column).
"""
from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import asdict, dataclass

from judge.escape import escape_controls, escape_tree
from judge.service.storage import DONE, Store, Submission
from judge.tampering import MAX_FINDINGS

COLUMNS = ("learner", "problem", "best_verdict", "best_passed", "total", "attempts", "judged", "first_accepted_at",
           "tampering")


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
    tampering: tuple[str, ...] = ()  # what the judged submissions' reports list, each once, oldest first


def gradebook(store: Store, course: str) -> list[Entry]:
    learners, submissions = store.course(course)
    problems = sorted({s.problem for s in submissions})
    by_pair: dict[tuple[str, str], list[Submission]] = {}
    for s in submissions:
        by_pair.setdefault((s.user, s.problem), []).append(s)
    return [_entry(learner.name, problem, by_pair.get((learner.name, problem), []))
            for learner in learners for problem in problems]


def _entry(learner: str, problem: str, submissions: list[Submission]) -> Entry:
    judged = [s for s in submissions if s.status == DONE and s.report is not None]   # oldest first
    accepted = [s for s in judged if s.verdict == "accepted"]
    best = None
    if accepted:
        best = accepted[0]
    elif judged:  # max keeps the first of equals, so look from the newest
        best = max(reversed(judged), key=lambda s: _passed(s))
    tampering = dict.fromkeys(text for s in judged for text in _tampering(s))
    return Entry(learner, problem, best.verdict if best else None, _passed(best) if best else None,
                 _total(best) if best else None, len(submissions), len(judged),
                 accepted[0].created_at if accepted else None, tuple(tampering)[:MAX_FINDINGS])


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
    # (judge.escape), so nothing a database came to hold reaches a terminal or a spreadsheet raw.
    return escape_tree({"course": course, "entries": [asdict(e) for e in entries]})


def gradebook_csv(entries: list[Entry]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for e in entries:
        first = (dt.datetime.fromtimestamp(e.first_accepted_at, dt.timezone.utc).isoformat(timespec="seconds")
                 if e.first_accepted_at is not None else "")
        writer.writerow([escape_controls(e.learner), escape_controls(e.problem), escape_controls(e.best_verdict or ""),
                         "" if e.best_passed is None else e.best_passed, "" if e.total is None else e.total,
                         e.attempts, e.judged, first, "; ".join(escape_controls(t, keep="") for t in e.tampering)])
    return out.getvalue()
