"""Accounts in the database: created one at a time or a roster at once (all or none), found by their
token's hash, disabled, moved between courses, given a new token, revoked, or deleted with their
submissions kept or removed. Within a course an email or a student id belongs to one account, since an
LMS matches grades on them."""
from __future__ import annotations

import time

from sqlalchemy import delete, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge.base.errors import ConfigError
from judge.service.storage.records import Account, IdentityTaken, NameTaken, NewUser, User
from judge.service.storage.schema import HintRow, JudgingRow, SubmissionRow, UserRow, user_of


class AccountTable:
    """The store's part that keeps accounts (see the module)."""

    engine: Engine

    def add_user(self, name: str, role: str, course: str, token_hash: str, expires_at: float | None = None) -> User:
        with Session(self.engine) as session, session.begin():
            row = UserRow(name=name, role=role, course=course, token_hash=token_hash, created_at=time.time(),
                          expires_at=expires_at)
            session.add(row)
            try:
                session.flush()
            except IntegrityError:
                raise ConfigError(f"user {name!r} already exists") from None
            return user_of(row)

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
            return [user_of(r) for r in rows]

    def user_by_token_hash(self, token_hash: str) -> User | None:
        """The user whose token this is, unless it was revoked or has expired or the account is disabled."""
        now = time.time()
        with Session(self.engine) as session:
            row = session.scalar(select(UserRow).where(UserRow.token_hash == token_hash, UserRow.revoked_at.is_(None),
                                                       UserRow.disabled_at.is_(None), UserRow.deleted_at.is_(None),
                                                       or_(UserRow.expires_at.is_(None), UserRow.expires_at > now)))
            return user_of(row) if row else None

    def accounts(self) -> list[Account]:
        """Every account but the deleted ones, by name."""
        with Session(self.engine) as session:
            return [Account(user_of(r), r.created_at, r.expires_at, r.revoked_at, r.disabled_at)
                    for r in session.scalars(select(UserRow).where(UserRow.deleted_at.is_(None))
                                             .order_by(UserRow.name))]

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
            return user_of(row)

