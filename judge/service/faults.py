"""Passing faults: the errors a service rides out by retrying, and how they are logged (one line each).

The database restarting, a connection to it dropped, Redis gone for a while,
a sandbox's fork server lost: none of these is a bug, nothing is lost (the
database is the source of truth and the reaper sends what is missing again),
and each is retried. So each is logged as one line saying what failed, why,
and that it is retried, never as a traceback; an error not listed here is a
bug and keeps its traceback.
"""
from __future__ import annotations

from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from judge.base.errors import SandboxError

DATABASE_DOWN = (OperationalError, InterfaceError, DisconnectionError, PoolTimeout)
PASSING = DATABASE_DOWN + (SandboxError, OSError)


def describe(exc: BaseException) -> str:
    """`Type: the first line of the message`, for a log line."""
    text = str(exc).strip()
    first = text.splitlines()[0] if text else ""
    if isinstance(exc, DATABASE_DOWN) and getattr(exc, "orig", None) is not None:
        # SQLAlchemy wraps the driver's error and appends the statement and its parameters.
        inner = str(exc.orig).strip()
        first = inner.splitlines()[0] if inner else first
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__
