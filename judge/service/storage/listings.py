"""Reading submissions from the database: one with its owner, a learner's or a course's listing, a
learner's history on a problem, and the counts the health check, the reaper and start-up read."""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from judge.service.storage.records import DONE, QUEUED, Submission, User
from judge.service.storage.schema import SubmissionRow, UserRow, submission_of, user_of


class SubmissionListings:
    """The store's part that reads submissions (see the module)."""

    engine: Engine

    def get(self, submission_id: str) -> tuple[Submission, User] | None:
        """The submission and its owner."""
        with Session(self.engine) as session:
            found = session.execute(select(SubmissionRow, UserRow).join(UserRow, SubmissionRow.user_id == UserRow.id)
                                    .where(SubmissionRow.id == submission_id)).first()
            return (submission_of(found[0], found[1].name), user_of(found[1])) if found else None

    def visible_to(self, user: User, *, limit: int, offset: int = 0, status: str | None = None) -> list[Submission]:
        """Newest first: a learner's own submissions, or every submission of an instructor's course."""
        query = select(SubmissionRow, UserRow).join(UserRow, SubmissionRow.user_id == UserRow.id)
        if user.role == "instructor":
            query = query.where(UserRow.course == user.course)
        else:
            query = query.where(SubmissionRow.user_id == user.id)
        if status is not None:
            query = query.where(SubmissionRow.status == status)
        query = query.order_by(SubmissionRow.created_at.desc(), SubmissionRow.id).limit(limit).offset(offset)
        with Session(self.engine) as session:
            return [submission_of(s, u.name, with_source=False) for s, u in session.execute(query)]

    def course(self, course: str, problem: str | None = None) -> tuple[list[User], list[Submission]]:
        """A course's learners (by name; not the disabled or deleted) and every submission of its learners
        (oldest first; to one problem if given), a deleted learner's kept ones included."""
        with Session(self.engine) as session:
            learners = [user_of(r) for r in session.scalars(select(UserRow).where(
                UserRow.course == course, UserRow.role == "learner", UserRow.disabled_at.is_(None),
                UserRow.deleted_at.is_(None)).order_by(UserRow.name))]
            query = (select(SubmissionRow, UserRow).join(UserRow, SubmissionRow.user_id == UserRow.id)
                     .where(UserRow.course == course, UserRow.role == "learner"))
            if problem is not None:
                query = query.where(SubmissionRow.problem == problem)
            found = [submission_of(s, u.name) for s, u in
                     session.execute(query.order_by(SubmissionRow.created_at, SubmissionRow.id))]
        return learners, found

    def history(self, user_id: int, problem: str) -> list[Submission]:
        """One learner's submissions to one problem, oldest first, with sources and reports."""
        with Session(self.engine) as session:
            found = session.execute(select(SubmissionRow, UserRow).join(UserRow, SubmissionRow.user_id == UserRow.id)
                                    .where(SubmissionRow.user_id == user_id, SubmissionRow.problem == problem)
                                    .order_by(SubmissionRow.created_at, SubmissionRow.id))
            return [submission_of(s, u.name) for s, u in found]

    def counts(self) -> dict[str, int]:
        with Session(self.engine) as session:
            rows = session.execute(select(SubmissionRow.status, func.count()).group_by(SubmissionRow.status))
            return {status: n for status, n in rows}

    def queued(self) -> int:
        """Submissions waiting for a worker to claim them (each needs a message, a turn, to be)."""
        with Session(self.engine) as session:
            return session.scalar(select(func.count()).select_from(SubmissionRow)
                                  .where(SubmissionRow.status == QUEUED))

    def unfinished(self) -> int:
        with Session(self.engine) as session:
            return session.scalar(select(func.count()).select_from(SubmissionRow).where(SubmissionRow.status != DONE))

    def all(self) -> list[Submission]:
        """Every submission with its report (for audits and the load benchmark)."""
        with Session(self.engine) as session:
            return [submission_of(s, u.name) for s, u in
                    session.execute(select(SubmissionRow, UserRow).join(UserRow, SubmissionRow.user_id == UserRow.id))]

    def pending(self) -> list[str]:
        """Every submission not done yet (to enqueue at start-up, oldest first)."""
        with Session(self.engine) as session:
            return list(session.scalars(select(SubmissionRow.id).where(SubmissionRow.status != DONE)
                                        .order_by(SubmissionRow.created_at)))
