"""The database's tables, how the store opens one, and how a row becomes a record (judge.service.storage.records).

Columns added after the first release are nullable, so `add_missing_columns` can bring an older
database up to date with plain ALTER TABLEs when the store opens it: that is the whole migration
scheme. SQLite (the default, embedded) runs in WAL mode so the API and the workers share the file;
a new SQLite file is created readable by its owner alone.
"""
from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from sqlalchemy import Float, ForeignKey, Integer, String, Text, create_engine, event, inspect, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from judge.base.errors import ConfigError
from judge.service.storage.records import Submission, User


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
    # Columns added after the first release are nullable, so `add_missing_columns` can add them
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



def open_engine(url: str) -> Engine:
    """An engine on the database at `url` (any SQLAlchemy URL) with every table and column this version
    uses; a ConfigError naming the database (never its password) when it cannot be opened."""
    try:
        if url.startswith("sqlite"):
            _create_private(url)
            engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
            event.listen(engine, "connect", _set_sqlite_pragmas)
        else:
            engine = create_engine(url, pool_pre_ping=True)
        Base.metadata.create_all(engine)
        add_missing_columns(engine)
    except (ArgumentError, OperationalError, ImportError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ConfigError(f"database {_safe_url(url)}: {first}") from None
    return engine


def add_missing_columns(engine: Engine) -> None:
    """Columns this version added to a table an older version created (all nullable)."""
    present = inspect(engine)
    with engine.begin() as connection:
        for table in Base.metadata.sorted_tables:
            have = {c["name"] for c in present.get_columns(table.name)}
            for column in table.columns:
                if column.name not in have:
                    kind = column.type.compile(dialect=engine.dialect)
                    connection.execute(text(f'ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}'))


def user_of(row: UserRow) -> User:
    return User(id=row.id, name=row.name, role=row.role, course=row.course, email=row.email,
                student_id=row.student_id, full_name=row.full_name, section=row.section)


def submission_of(row: SubmissionRow, owner: str, *, with_source: bool = True) -> Submission:
    return Submission(id=row.id, user=owner, problem=row.problem, source=row.source if with_source else "",
                      status=row.status, verdict=row.verdict, report=json.loads(row.report) if row.report else None,
                      created_at=row.created_at, finished_at=row.finished_at, attempts=row.attempts,
                      claimed_at=row.claimed_at, extra_judgings=row.extra_judgings,
                      conflicting_judgings=row.conflicting_judgings, worker=row.worker,
                      problem_version=row.problem_version, regrade_at=row.regrade_at)


def _create_private(url: str) -> None:
    """A new SQLite file is created 0600 (SQLite gives its -wal and -shm files the same mode)."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    if not path.exists() and path.parent.is_dir():
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def _set_sqlite_pragmas(connection, _record) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")       # readers never block the writer (API + workers)
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _safe_url(url: str) -> str:
    """The URL without its password, for error messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url)
