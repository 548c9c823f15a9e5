"""The database: accounts and submissions, and the state transitions workers rely on.

The database is the source of truth for every submission; the queue only
carries ids. Three operations make at-least-once delivery safe:

- `claim` moves a submission to "running" in one conditional UPDATE, so of two
  workers handed the same id only one judges it (unless its lease has expired);
- `finish` stores a result only if none is stored yet, so a second judging of
  the same submission never replaces the first result;
- `stale` finds submissions that a dead worker or a lost message left behind,
  for the reaper to enqueue again.

Fairness between learners lives here too: a delivered id is a turn to judge,
and `claim_next` spends it on the queued submission whose owner has the fewest
running and was served longest ago (round robin), so one learner's backlog
delays another's single submission by at most about one judging per worker.
Submissions sent to be judged again (`regrade`) come after every fresh one and
take turns the same way among themselves; they never count against a
learner's bound, which `create` enforces on queued submissions and bytes. A
regrade keeps each replaced result (the judgings table) and `flips` lists what
it changed.

Accounts are created one at a time or a roster at once (all or none), and
disabled, moved between courses or deleted (their submissions kept or
removed); a course's file (judge.service.course) is stored here too, so every
process of the service reads the same one.

SQLite (the default, embedded) and PostgreSQL both run these as single
statements; SQLite runs in WAL mode so the API and workers can share the file.
"""
from __future__ import annotations

import contextlib
import json
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from sqlalchemy import (Float, bindparam, case, delete, ForeignKey, Integer, String, Text, create_engine, event,
                        func, inspect, or_, select, text, update)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from judge.base.errors import ConfigError

QUEUED, RUNNING, DONE = "queued", "running", "done"
ROLES = ("learner", "instructor")


class Base(DeclarativeBase):
    pass


class UserRow(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[str] = mapped_column(String(16))
    course: Mapped[str] = mapped_column(String(64), default="")
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created_at: Mapped[float] = mapped_column(Float)
    # Columns added after the first release are nullable, so `_add_missing_columns` can add them
    # to an existing database with a plain ALTER TABLE.
    expires_at: Mapped[float | None] = mapped_column(Float, nullable=True)     # the token's end (None: never)
    revoked_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    last_claimed_at: Mapped[float | None] = mapped_column(Float, nullable=True)  # when a worker last took theirs
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)        # from a roster, for the LMS
    student_id: Mapped[str | None] = mapped_column(String(64), nullable=True)    # the school's id, for the LMS
    disabled_at: Mapped[float | None] = mapped_column(Float, nullable=True)      # no request is served while set
    deleted_at: Mapped[float | None] = mapped_column(Float, nullable=True)       # deleted, submissions kept
    full_name: Mapped[str | None] = mapped_column(String(128), nullable=True)    # the person's name, as a roster has it
    section: Mapped[str | None] = mapped_column(String(128), nullable=True)      # the roster's section (the LMS's)


class SubmissionRow(Base):
    __tablename__ = "submissions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    problem: Mapped[str] = mapped_column(String(64))
    source: Mapped[str] = mapped_column(Text)
    source_bytes: Mapped[int | None] = mapped_column(Integer, nullable=True)   # UTF-8 size (the queue bound)
    status: Mapped[str] = mapped_column(String(16), index=True)
    verdict: Mapped[str | None] = mapped_column(String(32), nullable=True)
    report: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    queued_at: Mapped[float] = mapped_column(Float)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)   # end of the running lease
    attempts: Mapped[int] = mapped_column(Integer, default=0)              # claims so far
    claimed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    # Judgings whose result came after the first was stored (at-least-once delivery), and how
    # many of those disagreed with it: the stored result never changes, these only count.
    extra_judgings: Mapped[int] = mapped_column(Integer, default=0)
    conflicting_judgings: Mapped[int] = mapped_column(Integer, default=0)
    worker: Mapped[str | None] = mapped_column(String(128), nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    problem_version: Mapped[str | None] = mapped_column(String(64), nullable=True)  # of the files it was judged on
    regrade_at: Mapped[float | None] = mapped_column(Float, nullable=True)   # when it was last sent to be judged again


class JudgingRow(Base):
    """A result a regrade replaced: kept, so nothing judged is ever lost and flips can be listed."""

    __tablename__ = "judgings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    submission_id: Mapped[str] = mapped_column(ForeignKey("submissions.id"), index=True)
    verdict: Mapped[str | None] = mapped_column(String(32), nullable=True)
    report: Mapped[str | None] = mapped_column(Text, nullable=True)
    problem_version: Mapped[str | None] = mapped_column(String(64), nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    replaced_at: Mapped[float] = mapped_column(Float)        # when the regrade that replaced it was asked


class HintRow(Base):
    """The hint level a learner has reached on a problem (hints are given one level at a time)."""

    __tablename__ = "hints"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    problem: Mapped[str] = mapped_column(String(64), primary_key=True)
    level: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[float] = mapped_column(Float)


class CourseRow(Base):
    """A course file (judge.service.course), as loaded: the service's processes all read it from here."""

    __tablename__ = "courses"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    definition: Mapped[str] = mapped_column(Text)            # the YAML, as the instructor wrote it
    file: Mapped[str] = mapped_column(String(1024))          # where it was loaded from (for messages)
    loaded_at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True)
class User:
    id: int
    name: str                       # the login: the account's unique handle
    role: str
    course: str
    email: str | None = None        # from a roster (judge.service.roster): what an LMS matches on
    student_id: str | None = None
    full_name: str | None = None    # the person's name, any Unicode text (None: the login stands for it)
    section: str | None = None

    @property
    def display(self) -> str:
        """The person's name as instructors read it."""
        return self.full_name or self.name


@dataclass(frozen=True)
class Account:
    """A user as `judge service users list` shows it: the token's state, never the token."""

    user: User
    created_at: float
    expires_at: float | None
    revoked_at: float | None
    disabled_at: float | None = None

    def state(self, now: float) -> str:
        if self.disabled_at is not None:
            return "disabled"
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and self.expires_at <= now:
            return "expired"
        return "active"


@dataclass(frozen=True)
class NewUser:
    """One account to create (a roster's row): its token's hash only."""

    name: str
    role: str
    course: str
    token_hash: str
    email: str | None = None
    student_id: str | None = None
    expires_at: float | None = None
    full_name: str | None = None
    section: str | None = None


@dataclass(frozen=True)
class Flip:
    """A submission whose verdict, or share of the tests passed, a regrade changed."""

    submission: str
    learner: str
    before: str | None
    after: str | None
    passed_before: int | None
    passed_after: int | None
    total_after: int | None
    name: str = ""              # the learner's name (the login where the roster had none)

    def to_json(self) -> dict:
        return {"submission": self.submission, "learner": self.learner, "name": self.name or self.learner,
                "before": self.before, "after": self.after,
                "passed_before": self.passed_before, "passed_after": self.passed_after, "total": self.total_after}


class NameTaken(ConfigError):
    """An account of this name exists already; `index` is its place in the list being added."""

    def __init__(self, name: str, index: int):
        super().__init__(f"user {name!r} already exists")
        self.name, self.index = name, index


class IdentityTaken(ConfigError):
    """Another account of the course has this email or student id (an LMS would put grades on the wrong
    learner); `index` is the place in the list being added, `field` email or id, `holder` that account."""

    def __init__(self, field: str, value: str, index: int, holder: str):
        super().__init__(f"{field} {value!r} belongs to {holder!r} already")
        self.field, self.value, self.index, self.holder = field, value, index, holder


class QuotaExceeded(Exception):
    """A learner's queued work would pass its bound; `wait_s` estimates when there is room."""

    def __init__(self, message: str, wait_s: float):
        super().__init__(message)
        self.wait_s = wait_s


@dataclass(frozen=True)
class Quota:
    """A bound on one learner's unfinished (queued or running) submissions: how many, how many bytes."""

    submissions: int
    source_bytes: int


@dataclass(frozen=True)
class Submission:
    id: str
    user: str
    problem: str
    source: str
    status: str
    verdict: str | None
    report: dict | None
    created_at: float
    finished_at: float | None
    attempts: int
    claimed_at: float | None = None
    extra_judgings: int = 0
    conflicting_judgings: int = 0
    worker: str | None = None          # who claimed it last (host:pid)
    problem_version: str | None = None  # the problem's files it was judged on (judge.service.regrade)
    regrade_at: float | None = None    # when it was last sent to be judged again

    def to_json(self, *, with_report: bool = True, with_source: bool = False) -> dict:
        data = {"id": self.id, "status": self.status, "problem": self.problem, "user": self.user,
                "verdict": self.verdict, "created_at": self.created_at, "finished_at": self.finished_at}
        if with_source:
            data["source"] = self.source
        if with_report:
            data["report"] = self.report
        if self.regrade_at is not None:
            data["regraded_at"] = self.regrade_at
        return data


def _statements():
    """The statements on every submission's path, built once with parameters (building one took
    most of a claim's 2.5 ms: SQLAlchemy coerces and keys each new statement)."""
    s, u = SubmissionRow, UserRow
    now = bindparam("now", type_=Float)
    running = (select(s.user_id, func.count().label("n")).where(s.status == RUNNING, s.deadline >= now)
               .group_by(s.user_id).subquery())
    claimable = or_(s.status == QUEUED, (s.status == RUNNING) & (s.deadline < now))
    # The fairest claimable submission (see Store.claim_next).
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


_PICK, _CLAIM, _SERVED = _statements()  # immutable, like a compiled pattern


class Store:
    """Accounts and submissions in the database at `url` (any SQLAlchemy URL)."""

    def __init__(self, url: str):
        try:
            if url.startswith("sqlite"):
                _create_private(url)
                self.engine: Engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
                event.listen(self.engine, "connect", _sqlite_pragmas)
            else:
                self.engine = create_engine(url, pool_pre_ping=True)
            Base.metadata.create_all(self.engine)
            _add_missing_columns(self.engine)
        except (ArgumentError, OperationalError, ImportError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ConfigError(f"database {_safe_url(url)}: {first}") from None

    def close(self) -> None:
        self.engine.dispose()

    def files(self) -> tuple[Path, ...]:
        """The directories holding the database's files (SQLite), for the sandbox to hide."""
        database = self.engine.url.database
        if self.engine.url.get_backend_name() != "sqlite" or not database or database == ":memory:":
            return ()
        return (Path(database).resolve().parent,)

    # ------------------------------------------------------------ accounts
    def add_user(self, name: str, role: str, course: str, token_hash: str, expires_at: float | None = None) -> User:
        with Session(self.engine) as session, session.begin():
            row = UserRow(name=name, role=role, course=course, token_hash=token_hash, created_at=time.time(),
                          expires_at=expires_at)
            session.add(row)
            try:
                session.flush()
            except IntegrityError:
                raise ConfigError(f"user {name!r} already exists") from None
            return _user(row)

    def add_users(self, users: list[NewUser]) -> list[User]:
        """Create every account in one transaction, or none: a name taken (here or earlier in the list)
        is a ConfigError naming it and its place in the list."""
        now = time.time()
        rows = [UserRow(name=u.name, role=u.role, course=u.course, token_hash=u.token_hash, created_at=now,
                        expires_at=u.expires_at, email=u.email, student_id=u.student_id, full_name=u.full_name,
                        section=u.section) for u in users]
        names = [u.name for u in users]
        with Session(self.engine) as session, session.begin():
            taken = set()
            for chunk in range(0, len(names), 500):   # under every database's limit on parameters
                taken |= set(session.scalars(select(UserRow.name).where(UserRow.name.in_(names[chunk:chunk + 500]))))
            for index, name in enumerate(names):
                if name in taken:
                    raise NameTaken(name, index)
                taken.add(name)
            # Within a course an email or a student id is one person's: the LMS matches grades on them.
            held: dict[tuple[str, str, str], str] = {}
            for row in session.execute(select(UserRow.name, UserRow.course, UserRow.email, UserRow.student_id)
                                       .where(UserRow.course.in_(sorted({u.course for u in users})),
                                              UserRow.deleted_at.is_(None))):
                for field_name, value in (("email", row.email), ("id", row.student_id)):
                    if value:
                        held[(row.course, field_name, value.lower())] = row.name
            for index, u in enumerate(users):
                for field_name, value in (("email", u.email), ("id", u.student_id)):
                    if value:
                        key = (u.course, field_name, value.lower())
                        if key in held:
                            raise IdentityTaken(field_name, value, index, held[key])
                        held[key] = u.name
            session.add_all(rows)
            try:
                session.flush()
            except IntegrityError:   # added by another process meanwhile
                raise ConfigError("an account of this list was added meanwhile; nothing was added") from None
            return [_user(r) for r in rows]

    def user_by_token_hash(self, token_hash: str) -> User | None:
        """The user whose token this is, unless it was revoked or has expired or the account is disabled."""
        now = time.time()
        with Session(self.engine) as session:
            row = session.scalar(select(UserRow).where(UserRow.token_hash == token_hash, UserRow.revoked_at.is_(None),
                                                       UserRow.disabled_at.is_(None), UserRow.deleted_at.is_(None),
                                                       or_(UserRow.expires_at.is_(None), UserRow.expires_at > now)))
            return _user(row) if row else None

    def accounts(self) -> list[Account]:
        """Every account but the deleted ones, by name."""
        with Session(self.engine) as session:
            return [Account(_user(r), r.created_at, r.expires_at, r.revoked_at, r.disabled_at)
                    for r in session.scalars(select(UserRow).where(UserRow.deleted_at.is_(None))
                                             .order_by(UserRow.name))]

    def courses(self) -> list[str]:
        """Every course an account is in or a course file defines."""
        with Session(self.engine) as session:
            found = set(session.scalars(select(UserRow.course).where(UserRow.course != "",
                                                                     UserRow.deleted_at.is_(None))))
            found |= set(session.scalars(select(CourseRow.name)))
        return sorted(found)

    def known_course(self, course: str) -> None:
        """A ConfigError unless `course` has an account or a course file: a typo reads as one line."""
        if course not in self.courses():
            known = ", ".join(self.courses()) or "none yet"
            raise ConfigError(f"no course {course!r} (courses: {known})")

    def set_disabled(self, name: str, disabled: bool) -> User:
        """Disable an account (none of its requests is served; it leaves the gradebook) or enable it again."""
        return self._update_user(name, disabled_at=time.time() if disabled else None)

    def move(self, name: str, course: str) -> User:
        """The account, with its submissions, now belongs to `course`."""
        return self._update_user(name, course=course)

    def delete_user(self, name: str, *, keep_submissions: bool) -> int:
        """Delete an account; how many submissions were removed (0 when they are kept).

        Kept submissions stay under the account's row, which is renamed `deleted-<id>-<name>` (so the
        name is free again), loses its token and leaves every listing and gradebook; their regrade
        history stays too. Otherwise the account, its submissions and their history are removed.
        """
        with Session(self.engine) as session, session.begin():
            row = session.scalar(select(UserRow).where(UserRow.name == name, UserRow.deleted_at.is_(None)))
            if row is None:
                raise ConfigError(f"no user {name!r} (judge service users list shows them)")
            if keep_submissions:
                row.name = f"deleted-{row.id}-{name}"[:64]
                row.token_hash = f"deleted-{row.id}"           # no token hashes to it
                row.deleted_at = time.time()
                return 0
            ids = select(SubmissionRow.id).where(SubmissionRow.user_id == row.id)
            session.execute(delete(JudgingRow).where(JudgingRow.submission_id.in_(ids)))
            session.execute(delete(HintRow).where(HintRow.user_id == row.id))
            removed = session.execute(delete(SubmissionRow).where(SubmissionRow.user_id == row.id)).rowcount
            session.delete(row)
            return removed

    def revoke(self, name: str) -> None:
        """The user's token stops working now (the account and its submissions stay)."""
        self._update_user(name, revoked_at=time.time())

    def set_token(self, name: str, token_hash: str, expires_at: float | None) -> User:
        """A new token for the user (the old one stops working now); un-revokes the account."""
        return self._update_user(name, token_hash=token_hash, expires_at=expires_at, revoked_at=None)

    def _update_user(self, name: str, **values) -> User:
        with Session(self.engine) as session, session.begin():
            row = session.scalar(select(UserRow).where(UserRow.name == name, UserRow.deleted_at.is_(None)))
            if row is None:
                raise ConfigError(f"no user {name!r} (judge service users list shows them)")
            for key, value in values.items():
                setattr(row, key, value)
            return _user(row)

    # ------------------------------------------------------------ submissions
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

    def get(self, submission_id: str) -> tuple[Submission, User] | None:
        """The submission and its owner."""
        with Session(self.engine) as session:
            found = session.execute(select(SubmissionRow, UserRow).join(UserRow, SubmissionRow.user_id == UserRow.id)
                                    .where(SubmissionRow.id == submission_id)).first()
            return (_submission(found[0], found[1].name), _user(found[1])) if found else None

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
            return [_submission(s, u.name, with_source=False) for s, u in session.execute(query)]

    def course(self, course: str, problem: str | None = None) -> tuple[list[User], list[Submission]]:
        """A course's learners (by name; not the disabled or deleted) and every submission of its learners
        (oldest first; to one problem if given), a deleted learner's kept ones included."""
        with Session(self.engine) as session:
            learners = [_user(r) for r in session.scalars(select(UserRow).where(
                UserRow.course == course, UserRow.role == "learner", UserRow.disabled_at.is_(None),
                UserRow.deleted_at.is_(None)).order_by(UserRow.name))]
            query = (select(SubmissionRow, UserRow).join(UserRow, SubmissionRow.user_id == UserRow.id)
                     .where(UserRow.course == course, UserRow.role == "learner"))
            if problem is not None:
                query = query.where(SubmissionRow.problem == problem)
            found = [_submission(s, u.name) for s, u in
                     session.execute(query.order_by(SubmissionRow.created_at, SubmissionRow.id))]
        return learners, found

    def history(self, user_id: int, problem: str) -> list[Submission]:
        """One learner's submissions to one problem, oldest first, with sources and reports."""
        with Session(self.engine) as session:
            found = session.execute(select(SubmissionRow, UserRow).join(UserRow, SubmissionRow.user_id == UserRow.id)
                                    .where(SubmissionRow.user_id == user_id, SubmissionRow.problem == problem)
                                    .order_by(SubmissionRow.created_at, SubmissionRow.id))
            return [_submission(s, u.name) for s, u in found]

    # ------------------------------------------------------------ hints
    def hints_given(self, user_id: int, problem: str) -> int:
        """The highest hint level `user_id` has been given on `problem` (0: none)."""
        with Session(self.engine) as session:
            row = session.get(HintRow, (user_id, problem))
            return row.level if row is not None else 0

    def next_hint(self, user_id: int, problem: str, levels: int) -> int:
        """Give the next hint level (staying on the last, `levels`) and return it."""
        for _ in range(3):     # two first requests at once: one inserts, the other retries as an update
            try:
                with Session(self.engine) as session, session.begin():
                    row = session.get(HintRow, (user_id, problem), with_for_update=True)
                    if row is None:
                        session.add(HintRow(user_id=user_id, problem=problem, level=1, updated_at=time.time()))
                        return 1
                    row.level, row.updated_at = min(row.level + 1, levels), time.time()
                    return row.level
            except IntegrityError:
                continue
        raise ConfigError("could not record the hint level; try again")

    # ------------------------------------------------------------ course files
    def set_course(self, name: str, definition: str, file: str) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.get(CourseRow, name)
            if row is None:
                session.add(CourseRow(name=name, definition=definition, file=file, loaded_at=time.time()))
            else:
                row.definition, row.file, row.loaded_at = definition, file, time.time()

    def course_definition(self, name: str) -> tuple[str, str] | None:
        """The course file's YAML and where it was loaded from; None when the course has none."""
        with Session(self.engine) as session:
            row = session.get(CourseRow, name)
            return (row.definition, row.file) if row is not None else None

    def counts(self) -> dict[str, int]:
        with Session(self.engine) as session:
            rows = session.execute(select(SubmissionRow.status, func.count()).group_by(SubmissionRow.status))
            return {status: n for status, n in rows}

    # ------------------------------------------------------------ the workers' transitions
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
            return _submission(row, owner)

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

    # ------------------------------------------------------------ regrades
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
            return [_submission(s, u.name) for s, u in
                    session.execute(select(SubmissionRow, UserRow).join(UserRow, SubmissionRow.user_id == UserRow.id))]

    def pending(self) -> list[str]:
        """Every submission not done yet (to enqueue at start-up, oldest first)."""
        with Session(self.engine) as session:
            return list(session.scalars(select(SubmissionRow.id).where(SubmissionRow.status != DONE)
                                        .order_by(SubmissionRow.created_at)))


def _check_quota(quota: Quota, held: int, held_bytes: int, adding: int, adding_bytes: int) -> None:
    if held + adding > quota.submissions:
        over = held + adding - quota.submissions
        raise QuotaExceeded(f"{held} of your submissions are still queued or running and the limit is "
                            f"{quota.submissions}; {adding} more would pass it: wait for {over} to finish",
                            wait_s=float(over))
    if held_bytes + adding_bytes > quota.source_bytes:
        raise QuotaExceeded(f"your queued and running submissions hold {held_bytes} bytes of source and the limit "
                            f"is {quota.source_bytes}; {adding_bytes} more would pass it", wait_s=float(max(1, held)))


def _create_private(url: str) -> None:
    """A new SQLite file is created 0600 (SQLite gives its -wal and -shm files the same mode)."""
    from sqlalchemy.engine import make_url

    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    if not path.exists() and path.parent.is_dir():
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def _add_missing_columns(engine: Engine) -> None:
    """Columns this version added to a table an older version created (all nullable)."""
    present = inspect(engine)
    with engine.begin() as connection:
        for table in Base.metadata.sorted_tables:
            have = {c["name"] for c in present.get_columns(table.name)}
            for column in table.columns:
                if column.name not in have:
                    kind = column.type.compile(dialect=engine.dialect)
                    connection.execute(text(f'ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}'))


def _sqlite_pragmas(connection, _record) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")       # readers never block the writer (API + workers)
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _user(row: UserRow) -> User:
    return User(id=row.id, name=row.name, role=row.role, course=row.course, email=row.email,
                student_id=row.student_id, full_name=row.full_name, section=row.section)


def _passed(report: str | None) -> int | None:
    value = json.loads(report).get("passed") if report else None
    return value if isinstance(value, int) else None


def _share(passed: int | None, total: int | None) -> float | None:
    return passed / total if passed is not None and total else None


def _total(report: str | None) -> int | None:
    value = json.loads(report).get("total") if report else None
    return value if isinstance(value, int) else None


def _submission(row: SubmissionRow, owner: str, *, with_source: bool = True) -> Submission:
    return Submission(id=row.id, user=owner, problem=row.problem, source=row.source if with_source else "",
                      status=row.status, verdict=row.verdict, report=json.loads(row.report) if row.report else None,
                      created_at=row.created_at, finished_at=row.finished_at, attempts=row.attempts,
                      claimed_at=row.claimed_at, extra_judgings=row.extra_judgings,
                      conflicting_judgings=row.conflicting_judgings, worker=row.worker,
                      problem_version=row.problem_version, regrade_at=row.regrade_at)


def _safe_url(url: str) -> str:
    """The URL without its password, for error messages."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url)
