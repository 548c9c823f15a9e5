"""Accounts and their API tokens: created once, shown once, stored only as a hash.

Tokens are 256 random bits, so a plain SHA-256 is enough to store them: unlike
passwords they cannot be guessed, and a fast hash lets every request be looked
up by its hash (an index) instead of trying a slow hash against every account.
"""
from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from judge.errors import ConfigError
from judge.service.storage import ROLES, Store, User

TOKEN_PREFIX = "tj_"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}")


@dataclass(frozen=True)
class NewAccount:
    user: User
    token: str   # shown once; only its hash is stored


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def add_user(store: Store, name: str, role: str = "learner", course: str = "") -> NewAccount:
    if not NAME.fullmatch(name):
        raise ConfigError(f"user name {name!r}: expected 1-64 letters, digits or _.@- (starting with a letter or digit)")
    if role not in ROLES:
        raise ConfigError(f"role {role!r}: expected one of {', '.join(ROLES)}")
    if role == "instructor" and not course:
        raise ConfigError("an instructor needs a course (--course NAME): it is whose submissions they see")
    if course and not NAME.fullmatch(course):
        raise ConfigError(f"course {course!r}: expected 1-64 letters, digits or _.@-")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    return NewAccount(store.add_user(name, role, course, hash_token(token)), token)


def authenticate(store: Store, token: str) -> User | None:
    if not token.startswith(TOKEN_PREFIX) or len(token) > 128:
        return None
    return store.user_by_token_hash(hash_token(token))
