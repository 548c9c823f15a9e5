"""Regrades in the database: judged submissions sent to be judged again on a problem's changed files.

Each one's current result moves to the judgings table first, so nothing judged is ever lost; the
submission keeps showing it until the new one is stored, and `flips` lists what the latest regrade
changed (a verdict, or the share of the tests passed that credit per test grades).
"""
from __future__ import annotations

import json
import time

from sqlalchemy import func, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from judge.service.storage.records import DONE, QUEUED, Flip
from judge.service.storage.schema import JudgingRow, SubmissionRow, UserRow


class RegradeTable:
    """The store's part that regrades and lists the flips (see the module)."""

    engine: Engine

    def regrade(self, problem: str, version: str, *, course: str | None = None, everything: bool = False) -> list[str]:
        """Send the judged submissions to `problem` (of one course, if given) that were not judged on
        `version` (every one with `everything`) to be judged again; their ids, oldest first.

        Each one's current result moves to the judgings table first (nothing judged is lost); the
        submission keeps showing it until the new one is stored (`finish`). Unfinished ones are left
        alone: they will be judged on the current files anyway.
        """
        now = time.time()
        query = select(SubmissionRow).where(SubmissionRow.problem == problem, SubmissionRow.status == DONE)
        if course is not None:
            query = query.where(SubmissionRow.user_id.in_(select(UserRow.id).where(UserRow.course == course)))
        if not everything:
            query = query.where(or_(SubmissionRow.problem_version.is_(None), SubmissionRow.problem_version != version))
        with Session(self.engine) as session, session.begin():
            rows = list(session.scalars(query.order_by(SubmissionRow.created_at, SubmissionRow.id)
                                        .with_for_update()))
            session.add_all(JudgingRow(submission_id=r.id, verdict=r.verdict, report=r.report,
                                       problem_version=r.problem_version, finished_at=r.finished_at, replaced_at=now)
                            for r in rows)
            for r in rows:
                r.status, r.regrade_at, r.queued_at, r.attempts, r.deadline = QUEUED, now, now, 0, None
            return [r.id for r in rows]

    def judged_versions(self, problem: str) -> dict[str | None, int]:
        """How many judged submissions to `problem` each version of its files judged (None: before versions
        were recorded)."""
        with Session(self.engine) as session:
            rows = session.execute(select(SubmissionRow.problem_version, func.count())
                                   .where(SubmissionRow.problem == problem, SubmissionRow.status == DONE)
                                   .group_by(SubmissionRow.problem_version))
            return {version: n for version, n in rows}

    def flips(self, problem: str, course: str | None = None) -> tuple[float | None, int, int, list[Flip]]:
        """The latest regrade of `problem`: when it was asked, how many it sent, how many are done, and the
        submissions whose verdict (or tests passed) it changed, by learner."""
        with Session(self.engine) as session:
            scope = select(SubmissionRow.id).join(UserRow, SubmissionRow.user_id == UserRow.id).where(
                SubmissionRow.problem == problem)
            if course is not None:
                scope = scope.where(UserRow.course == course)
            latest = session.scalar(select(func.max(JudgingRow.replaced_at)).where(JudgingRow.submission_id.in_(scope)))
            if latest is None:
                return None, 0, 0, []
            found = session.execute(
                select(JudgingRow, SubmissionRow, UserRow).join(SubmissionRow, JudgingRow.submission_id == SubmissionRow.id)
                .join(UserRow, SubmissionRow.user_id == UserRow.id)
                .where(JudgingRow.replaced_at == latest, JudgingRow.submission_id.in_(scope))
                .order_by(UserRow.name, SubmissionRow.created_at)).all()
        flips, done = [], 0
        for old, new, owner in found:
            if new.status != DONE or new.regrade_at != latest:
                continue
            done += 1
            before, after = _passed(old.report), _passed(new.report)
            # A flip: another verdict, or another share of the tests passed (what credit per test grades).
            if old.verdict != new.verdict or _share(before, _total(old.report)) != _share(after, _total(new.report)):
                flips.append(Flip(new.id, owner.name, old.verdict, new.verdict, before, after,
                                  _total(new.report), owner.full_name or owner.name))
        return latest, len(found), done, flips


def _passed(report: str | None) -> int | None:
    value = json.loads(report).get("passed") if report else None
    return value if isinstance(value, int) else None


def _share(passed: int | None, total: int | None) -> float | None:
    return passed / total if passed is not None and total else None


def _total(report: str | None) -> int | None:
    value = json.loads(report).get("total") if report else None
    return value if isinstance(value, int) else None
