"""The database behind the service: one `Store` that every process opens on the same URL.

The store is a facade over parts, each a module of its own: `lifecycle` (a submission created,
claimed, finished, found stale: the at-least-once contract the workers rely on, and the fair order of
judging), `listings` (reading submissions), `accounts`, `courses` (course files), `hints`, and
`regrades` (judging again, and what changed). `schema` holds the tables and the migration of an older
database; `records` the plain types the store hands out, which this package exports too.

SQLite (the default, embedded) and PostgreSQL both run every operation as single statements.
"""
from __future__ import annotations

from pathlib import Path

from judge.service.storage.accounts import AccountTable
from judge.service.storage.courses import CourseTable
from judge.service.storage.hints import HintTable
from judge.service.storage.lifecycle import SubmissionLifecycle
from judge.service.storage.listings import SubmissionListings
from judge.service.storage.records import (DONE, QUEUED, ROLES, RUNNING, Account, Flip, IdentityTaken, NameTaken,
                                           NewUser, Quota, QuotaExceeded, Submission, User)
from judge.service.storage.regrades import RegradeTable
from judge.service.storage.schema import open_engine

__all__ = ["DONE", "QUEUED", "ROLES", "RUNNING", "Account", "Flip", "IdentityTaken", "NameTaken", "NewUser",
           "Quota", "QuotaExceeded", "Store", "Submission", "User"]


class Store(SubmissionLifecycle, SubmissionListings, AccountTable, CourseTable, HintTable, RegradeTable):
    """Accounts and submissions in the database at `url` (any SQLAlchemy URL)."""

    def __init__(self, url: str):
        self.engine = open_engine(url)

    def close(self) -> None:
        self.engine.dispose()

    def files(self) -> tuple[Path, ...]:
        """The directories holding the database's files (SQLite), for the sandbox to hide."""
        database = self.engine.url.database
        if self.engine.url.get_backend_name() != "sqlite" or not database or database == ":memory:":
            return ()
        return (Path(database).resolve().parent,)
