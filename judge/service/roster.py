"""A class roster in, tokens out: `judge service users import ROSTER.csv -o TOKENS.csv`.

The roster is a CSV file with a header: `name` and `course` in every row,
optionally `email`, `id` (the school's student id) and `role` (learner, the
default, or instructor); other columns (an LMS export has many) are ignored and
named. Every row is checked before anything is stored, and every error is
reported at once, each naming the file, the line, the column and what is
expected. The accounts are then created in one transaction (all or none), and
their tokens written to TOKENS.csv (name, course, email, id, token), created
0600 and never overwritten, since a token is shown once: the instructor hands
each learner their line (its cells as judge.base.csvcells writes them: an email
beginning with `+` or `-` is quoted, never a formula). The file is opened before the accounts are made, so
accounts never exist without their tokens written.
"""
from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from pathlib import Path

from judge.base import csvcells
from judge.base.errors import ConfigError, ConfigErrors
from judge.service.accounts import EMAIL, NAME, STUDENT_ID, hash_token, new_token
from judge.service.storage import ROLES, NameTaken, NewUser, Store

COLUMNS = ("name", "course", "email", "id", "role")
REQUIRED = ("name", "course")
MAX_ROWS = 10_000


@dataclass(frozen=True)
class RosterEntry:
    name: str
    course: str
    email: str | None
    student_id: str | None
    role: str
    line: int


@dataclass(frozen=True)
class Roster:
    entries: tuple[RosterEntry, ...]
    ignored: tuple[str, ...]        # columns that are not the roster's
    file: Path | None = None


def read_roster(path: Path) -> Roster:
    """The roster in `path`, every row checked; a ConfigError (or ConfigErrors) naming what is wrong."""
    try:
        text = path.read_bytes().decode("utf-8-sig")     # a spreadsheet's BOM is no part of the first column
    except FileNotFoundError:
        raise ConfigError("file not found", file=path) from None
    except IsADirectoryError:
        raise ConfigError("is a directory, expected a CSV file", file=path) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not UTF-8 text (byte {exc.start}): save the roster as CSV UTF-8", file=path) from None
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror or exc}", file=path) from None
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        raise ConfigError(f"not a CSV file: {exc}", file=path) from None
    if not rows:
        raise ConfigError("empty: expected a header row (name,course[,email][,id][,role]) and a row per learner",
                          file=path)
    header = [h.strip().lower() for h in rows[0]]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise ConfigError(f"header: no column {' or '.join(missing)} (expected name,course and optionally "
                          f"email, id, role; found {', '.join(header) or 'nothing'})", file=path, line=1)
    duplicated = sorted({h for h in header if header.count(h) > 1 and h in COLUMNS})
    if duplicated:
        raise ConfigError(f"header: column {', '.join(duplicated)} appears twice", file=path, line=1)
    if len(rows) - 1 > MAX_ROWS:
        raise ConfigError(f"{len(rows) - 1} rows; at most {MAX_ROWS} at once", file=path)
    where = {c: header.index(c) for c in COLUMNS if c in header}
    errors: list[ConfigError] = []
    entries: list[RosterEntry] = []
    seen: dict[str, int] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue              # a blank line at the end of a spreadsheet export
        cell = {c: (row[i].strip() if i < len(row) else "") for c, i in where.items()}

        def bad(column: str, message: str) -> None:
            errors.append(ConfigError(message, file=path, line=line, field=column))

        name, course = cell["name"], cell["course"]
        if not NAME.fullmatch(name):
            bad("name", f"{name!r}: expected 1-64 letters, digits or _.@- (starting with a letter or digit)")
        elif name in seen:
            bad("name", f"{name!r} is on line {seen[name]} too")
        else:
            seen[name] = line
        if not NAME.fullmatch(course):
            bad("course", f"{course!r}: expected 1-64 letters, digits or _.@-")
        email = cell.get("email") or None
        if email is not None and (len(email) > 254 or not EMAIL.fullmatch(email)):
            bad("email", f"{email!r}: expected an address like ada@example.org")
        student_id = cell.get("id") or None
        if student_id is not None and not STUDENT_ID.fullmatch(student_id):
            bad("id", f"{student_id!r}: expected 1-64 letters, digits or _.:/- (starting with a letter or digit)")
        role = (cell.get("role") or "learner").lower()
        if role not in ROLES:
            bad("role", f"{role!r}: expected one of {', '.join(ROLES)}")
        entries.append(RosterEntry(name, course, email, student_id, role, line))
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ConfigErrors(errors)
    if not entries:
        raise ConfigError("no learners: only a header row", file=path)
    return Roster(tuple(entries), tuple(h for h in header if h not in COLUMNS), path)


def import_roster(store: Store, roster: Roster, tokens_file: Path, expires_at: float | None = None) -> int:
    """Create every account of `roster` and write their tokens to `tokens_file`; how many were created.

    `tokens_file` must not exist yet. Nothing is created if it cannot be, or if any name is taken.
    """
    handle = _create_private(tokens_file)
    try:
        tokens = [new_token() for _ in roster.entries]
        store.add_users([NewUser(e.name, e.role, e.course, hash_token(t), e.email, e.student_id, expires_at)
                         for e, t in zip(roster.entries, tokens)])
    except NameTaken as exc:
        handle.close()
        tokens_file.unlink(missing_ok=True)
        entry = roster.entries[exc.index]
        raise ConfigError(f"{entry.name!r} has an account already; nothing was added", file=roster.file,
                          line=entry.line, field="name") from None
    except BaseException:
        handle.close()
        tokens_file.unlink(missing_ok=True)
        raise
    with handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(csvcells.row(["name", "course", "email", "id", "token"]))
        for e, token in zip(roster.entries, tokens):
            # An email may begin with + or -: no cell of the file runs as a formula (judge.base.csvcells).
            writer.writerow(csvcells.row([e.name, e.course, e.email, e.student_id, token]))
        handle.flush()
        os.fsync(handle.fileno())
    return len(tokens)


def _create_private(path: Path):
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise ConfigError("exists already: tokens are shown once, so their file is never overwritten; "
                          "name a new one", file=path, field="-o") from None
    except OSError as exc:
        raise ConfigError(f"cannot create: {exc.strerror or exc}", file=path, field="-o") from None
    return os.fdopen(descriptor, "w", encoding="utf-8", newline="")
