"""A submission's life in the database: created queued, claimed by a worker, finished once, and found
stale when a worker or a message was lost. This is the at-least-once contract the workers rely on.

The database is the source of truth for every submission; the queue only carries ids, and any id may
be delivered twice, late or never. Four operations make that safe:

- `create` stores new submissions as queued, all or none, within the learner's quota of unfinished
  submissions and bytes (a regrade never counts against it);
- `claim` moves a submission to running in one conditional UPDATE, so of two workers handed the same
  id only one judges it (unless its lease has expired);
- `finish` stores a result only if none is stored yet, so a second judging of the same submission
  never replaces the first result (it is counted, and whether it disagreed);
- `stale` finds submissions that a dead worker or a lost message left behind, for the reaper to
  enqueue again.

A delivered id is a turn to judge: `claim_next` spends it on the fairest claimable submission, whose
owner has the fewest running and was served longest ago (round robin), so one learner's backlog
delays another's single submission by at most about one judging per worker; regrades come after every
fresh submission and take turns the same way among themselves.
"""
from __future__ import annotations

import json
import time
import uuid
from typing import Iterable

from sqlalchemy import Float, bindparam, case, func, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from judge.service.storage.records import DONE, QUEUED, RUNNING, Quota, QuotaExceeded, Submission, User
from judge.service.storage.schema import SubmissionRow, UserRow, submission_of


def _build_statements():
    """The statements on every submission's path, built once with parameters: SQLAlchemy coerces and
    keys each new statement, which would otherwise be most of a claim's cost."""
    s, u = SubmissionRow, UserRow
    now = bindparam("now", type_=Float)
    running = (select(s.user_id, func.count().label("n")).where(s.status == RUNNING, s.deadline >= now)
               .group_by(s.user_id).subquery())
    claimable = or_(s.status == QUEUED, (s.status == RUNNING) & (s.deadline < now))
    # The fairest claimable submission (see claim_next).
    pick = (select(s.id).join(u, u.id == s.user_id).outerjoin(running, running.c.user_id == s.user_id)
            .where(claimable)
            .order_by(case((s.regrade_at.is_(None), 0), else_=1), func.coalesce(running.c.n, 0),
                      func.coalesce(u.last_claimed_at, 0.0), s.created_at, s.id)
            .limit(1))
    # Parameters are named apart from the columns (SQLAlchemy keeps a column's name for its SET value).
    claim = (update(s).where(s.id == bindparam("claimed_id"), claimable)
             .values(status=RUNNING, deadline=bindparam("lease_end"), worker=bindparam("claimer"), claimed_at=now,
                     attempts=s.attempts + 1)
             .returning(s))
    served = update(u).where(u.id == bindparam("owner")).values(last_claimed_at=now).returning(u.name)
    return pick, claim, served




_PICK, _CLAIM, _SERVED = _build_statements()  # immutable, like a compiled pattern


class SubmissionLifecycle:
    """The store's part that creates, claims, finishes and sweeps submissions (see the module)."""

    engine: Engine

    def create(self, user: User, items: Iterable[tuple[str, str]], quota: Quota | None = None) -> list[str]:
        """New queued submissions of (problem, source), in one transaction; their ids.

        With a `quota`, raises QuotaExceeded (and stores nothing) when the user's unfinished
        submissions would pass it. The user's row is written first, so concurrent requests of one
        user are counted one after the other (a row lock on PostgreSQL, the write lock on SQLite).
        """
        now = time.time()
        rows = [SubmissionRow(id=uuid.uuid4().hex, user_id=user.id, problem=problem, source=source,
                              source_bytes=len(source.encode("utf-8", "surrogatepass")), status=QUEUED,
                              created_at=now, queued_at=now, attempts=0) for problem, source in items]
        ids = [r.id for r in rows]
        with Session(self.engine) as session, session.begin():
            if quota is not None:
                session.execute(update(UserRow).where(UserRow.id == user.id).values(name=UserRow.name))
                n, size = session.execute(
                    select(func.count(), func.coalesce(func.sum(SubmissionRow.source_bytes), 0))
                    .where(SubmissionRow.user_id == user.id, SubmissionRow.status != DONE,
                           SubmissionRow.regrade_at.is_(None))).one()   # a regrade is not theirs to wait for
                _check_quota(quota, n, size, len(rows), sum(r.source_bytes for r in rows))
            session.add_all(rows)
        return ids


    def claim(self, submission_id: str, worker: str, lease_s: float) -> Submission | None:
        """Take the submission to judge it, or None when it is done or another worker's lease holds it."""
        now = time.time()
        with Session(self.engine) as session, session.begin():
            # Two statements, each returning what the next needs: a claim is on every submission's path.
            row = session.execute(_CLAIM, {"claimed_id": submission_id, "now": now, "lease_end": now + lease_s,
                                           "claimer": worker}).scalar_one_or_none()
            if row is None:
                return None
            owner = session.execute(_SERVED, {"owner": row.user_id, "now": now}).scalar_one()
            return submission_of(row, owner)

    def claim_next(self, worker: str, lease_s: float, *, tries: int = 20) -> Submission | None:
        """Take the fairest claimable submission, or None when there is none.

        Fairest: its owner has the fewest submissions running, then was served longest ago (so
        owners take turns), then it is the owner's oldest. Two workers may pick the same one; the
        conditional UPDATE of `claim` lets one have it and the other picks again.
        """
        for _ in range(tries):
            with Session(self.engine) as session:
                candidate = session.scalar(_PICK, {"now": time.time()})
            if candidate is None:
                return None
            claimed = self.claim(candidate, worker, lease_s)
            if claimed is not None:
                return claimed
        return None

    def finish(self, submission_id: str, report: dict, problem_version: str | None = None) -> bool:
        """Store the result unless one is stored already; whether this call stored it."""
        verdict = str(report.get("verdict"))
        with Session(self.engine) as session, session.begin():
            result = session.execute(update(SubmissionRow)
                                     .where(SubmissionRow.id == submission_id, SubmissionRow.status != DONE)
                                     .values(status=DONE, verdict=verdict, report=json.dumps(report),
                                             finished_at=time.time(), deadline=None,
                                             problem_version=problem_version))
            if result.rowcount == 1:
                return True
            row = SubmissionRow
            session.execute(update(row).where(row.id == submission_id)
                            .values(extra_judgings=row.extra_judgings + 1,
                                    conflicting_judgings=row.conflicting_judgings
                                    + case((row.verdict != verdict, 1), else_=0)))
            return False

    def stale(self, requeue_after_s: float, queued_limit: int | None = None) -> list[str]:
        """Submissions to enqueue again: every one running past its lease, and at most `queued_limit`
        (None: all) of those queued and unclaimed for `requeue_after_s`, oldest first.

        Each is stamped as queued now, so the next sweep leaves it alone for another `requeue_after_s`.
        """
        now = time.time()
        expired = (SubmissionRow.status == RUNNING) & (SubmissionRow.deadline < now)
        waited = (SubmissionRow.status == QUEUED) & (SubmissionRow.queued_at < now - requeue_after_s)
        with Session(self.engine) as session, session.begin():
            ids = list(session.scalars(select(SubmissionRow.id).where(expired).limit(1000)))
            if queued_limit is None or queued_limit > 0:
                ids += session.scalars(select(SubmissionRow.id).where(waited)
                                       .order_by(SubmissionRow.queued_at, SubmissionRow.created_at, SubmissionRow.id)
                                       .limit(min(1000, 1000 if queued_limit is None else queued_limit)))
            if ids:
                # Running ones go back to queued; the checks repeat so a just-renewed claim is left alone.
                session.execute(update(SubmissionRow).where(SubmissionRow.id.in_(ids), or_(expired, waited))
                                .values(status=QUEUED, queued_at=now))
        return ids



def _check_quota(quota: Quota, held: int, held_bytes: int, adding: int, adding_bytes: int) -> None:
    if held + adding > quota.submissions:
        over = held + adding - quota.submissions
        raise QuotaExceeded(f"{held} of your submissions are still queued or running and the limit is "
                            f"{quota.submissions}; {adding} more would pass it: wait for {over} to finish",
                            wait_s=float(over))
    if held_bytes + adding_bytes > quota.source_bytes:
        raise QuotaExceeded(f"your queued and running submissions hold {held_bytes} bytes of source and the limit "
                            f"is {quota.source_bytes}; {adding_bytes} more would pass it", wait_s=float(max(1, held)))
