"""Accounts and their API tokens: created once, shown once, stored only as a hash.

A token may carry an expiry; `revoke` ends it at once and `rotate` replaces it
(the old one stops working at once). Every request looks its token up in the
database, so neither waits for any cache to age.

Tokens are 256 random bits, so a plain SHA-256 is enough to store them: unlike
passwords they cannot be guessed, and a fast hash lets every request be looked
up by its hash (an index) instead of trying a slow hash against every account.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass

from judge.base.errors import ConfigError
from judge.service.storage import ROLES, NewUser, Store, User

TOKEN_PREFIX = "tj_"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}")
# What an account may carry besides its name (one account at a time, or a roster's rows).
EMAIL = re.compile(r"[A-Za-z0-9_.+%-][A-Za-z0-9_.+%'-]*@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+")
STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/-]{0,63}")
DURATION = re.compile(r"(\d+)([mhdw])")
MAX_NAME = 128                       # a person's name, as a roster writes it
UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


@dataclass(frozen=True)
class NewAccount:
    user: User
    token: str   # shown once; only its hash is stored


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def parse_expiry(value: str | None, now: float | None = None) -> float | None:
    """When a token given `--expires VALUE` ends: a duration (90m, 12h, 30d, 2w) or a date (2027-01-31, UTC)."""
    if value is None:
        return None
    now = time.time() if now is None else now
    if m := DURATION.fullmatch(value.strip()):
        if int(m.group(1)) == 0:
            raise ConfigError(f"--expires {value}: a duration above zero")
        return now + int(m.group(1)) * UNITS[m.group(2)]
    try:
        when = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        raise ConfigError(f"--expires {value!r}: expected a duration (90m, 12h, 30d, 2w) or a date "
                          "(2027-01-31 or 2027-01-31T18:00, UTC)") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    if when.timestamp() <= now:
        raise ConfigError(f"--expires {value}: that is in the past")
    return when.timestamp()


def person_name_error(name: str) -> str | None:
    """Why `name` is no person's name (None: it is one): 1-128 characters of text, no control characters."""
    if not name:
        return "empty: expected the person's name (1-128 characters)"
    if len(name) > MAX_NAME:
        return f"{len(name)} characters: expected the person's name in at most {MAX_NAME}"
    control = next((c for c in name if unicodedata.category(c) in ("Cc", "Cs") or c in "\u2028\u2029"
                    or unicodedata.bidirectional(c) in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI",
                                                        "PDI")), None)
    if control is not None:
        return f"{name!r}: expected text without control characters (U+{ord(control):04X})"
    return None


def add_user(store: Store, name: str, role: str = "learner", course: str = "",
             expires_at: float | None = None, *, email: str | None = None,
             student_id: str | None = None, full_name: str | None = None, section: str | None = None) -> NewAccount:
    if not NAME.fullmatch(name):
        raise ConfigError(f"user name {name!r}: expected 1-64 letters, digits or _.@- (starting with a letter or digit)")
    if role not in ROLES:
        raise ConfigError(f"role {role!r}: expected one of {', '.join(ROLES)}")
    if role == "instructor" and not course:
        raise ConfigError("an instructor needs a course (--course NAME): it is whose submissions they see")
    if course and not NAME.fullmatch(course):
        raise ConfigError(f"course {course!r}: expected 1-64 letters, digits or _.@-")
    if email is not None and not EMAIL.fullmatch(email):
        raise ConfigError(f"--email {email!r}: expected an address like ada@example.org")
    if student_id is not None and not STUDENT_ID.fullmatch(student_id):
        raise ConfigError(f"--id {student_id!r}: expected 1-64 letters, digits or _.:/-")
    if full_name is not None:
        full_name = unicodedata.normalize("NFC", full_name.strip())
        if (problem := person_name_error(full_name)) is not None:
            raise ConfigError(f"--name: {problem}")
    if section is not None and person_name_error(section.strip()) is not None:
        raise ConfigError(f"--section {section!r}: expected 1-128 characters of text")
    token = new_token()
    [user] = store.add_users([NewUser(name, role, course, hash_token(token), email, student_id, expires_at,
                                      full_name, section.strip() if section else None)])
    return NewAccount(user, token)


def rotate(store: Store, name: str, expires_at: float | None = None) -> NewAccount:
    """A new token for `name`; the old one (revoked or not) stops working at once."""
    token = new_token()
    return NewAccount(store.set_token(name, hash_token(token), expires_at), token)


def revoke(store: Store, name: str) -> None:
    store.revoke(name)


def authenticate(store: Store, token: str) -> User | None:
    if not token.startswith(TOKEN_PREFIX) or len(token) > 128:
        return None
    return store.user_by_token_hash(hash_token(token))
