"""A class roster in, tokens out: `judge service users import ROSTER.csv -o TOKENS.csv`.

The roster is a CSV file with a header: `name` (the person's name, any
Unicode text of 1-128 characters as an LMS export writes it: `Chloé Dupont`,
`Dupont, Jean`) and `course` in every row; optionally `login` (the account's
handle: 1-64 letters, digits or _.@-), `email`, `id` (the school's student
id), `section` and `role` (learner, the default, or instructor); other columns
(an LMS export has many) are ignored and named. A row without a login gets one
made from the name: folded to ASCII (é to e, Ł to L, ß to ss), lower case, its
words joined by dots, `Last, First` read as First Last (`jean.dupont`), and
made unique with a number (`jean.dupont2`) against the file and the accounts
there are; the import says each one it made. Within a course two rows may not
share an email or an id (nor a row an account's): an LMS matches grades on
them, so each is refused naming both lines (or the account).

Every row is checked before anything is stored, and every error is reported
at once, each naming the file, the line, the column and what is expected. The
accounts are then created in one transaction (all or none), and their tokens
written to TOKENS.csv (name, login, course, email, id, token), created 0600
and never overwritten, since a token is shown once: the instructor hands each
learner their line (its cells as judge.base.csvcells writes them: a name or an
email beginning with `=`, `+` or `-` is quoted, never a formula). The file is
opened before the accounts are made, so accounts never exist without their
tokens written.
"""
from __future__ import annotations

import csv
import io
import os
import re
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from judge.base import csvcells
from judge.base.errors import ConfigError, ConfigErrors
from judge.service.accounts import EMAIL, NAME, STUDENT_ID, hash_token, new_token, person_name_error
from judge.service.storage import ROLES, IdentityTaken, NameTaken, NewUser, Store

COLUMNS = ("name", "login", "course", "email", "id", "section", "role")
REQUIRED = ("name", "course")
MAX_ROWS = 10_000
# Letters Unicode does not decompose into an ASCII letter and a mark.
FOLDED = {"Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ß": "ss", "Æ": "AE",
          "æ": "ae", "Œ": "OE", "œ": "oe", "Þ": "Th", "þ": "th", "ı": "i", "Ŋ": "N", "ŋ": "n"}


@dataclass(frozen=True)
class RosterEntry:
    name: str                       # the person's name
    login: str                      # the account's handle
    course: str
    email: str | None
    student_id: str | None
    role: str
    line: int
    section: str | None = None
    derived: bool = False           # the login was made from the name


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
        raise ConfigError("empty: expected a header row (name,course[,login][,email][,id][,section][,role]) and a row "
                          "per learner",
                          file=path)
    header = [h.strip().lower() for h in rows[0]]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise ConfigError(f"header: no column {' or '.join(missing)} (expected name,course and optionally "
                          f"login, email, id, section, role; found {', '.join(header) or 'nothing'})", file=path, line=1)
    duplicated = sorted({h for h in header if header.count(h) > 1 and h in COLUMNS})
    if duplicated:
        raise ConfigError(f"header: column {', '.join(duplicated)} appears twice", file=path, line=1)
    if len(rows) - 1 > MAX_ROWS:
        raise ConfigError(f"{len(rows) - 1} rows; at most {MAX_ROWS} at once", file=path)
    where = {c: header.index(c) for c in COLUMNS if c in header}
    errors: list[ConfigError] = []
    entries: list[RosterEntry] = []
    logins: dict[str, int] = {}                              # given logins, by line
    identities: dict[tuple[str, str, str], int] = {}         # (course, email|id, value) -> line
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue              # a blank line at the end of a spreadsheet export
        cell = {c: (row[i].strip() if i < len(row) else "") for c, i in where.items()}

        def bad(column: str, message: str) -> None:
            errors.append(ConfigError(message, file=path, line=line, field=column))

        name, course = unicodedata.normalize("NFC", cell["name"]), cell["course"]
        name_error = person_name_error(name)
        if name_error:
            bad("name", name_error)
        login = cell.get("login") or ""
        if login:
            if not NAME.fullmatch(login):
                bad("login", f"{login!r}: expected 1-64 letters, digits or _.@- (starting with a letter or digit)")
            elif login in logins:
                bad("login", f"{login!r} is on line {logins[login]} too")
            else:
                logins[login] = line
        if not NAME.fullmatch(course):
            bad("course", f"{course!r}: expected 1-64 letters, digits or _.@-")
        email = cell.get("email") or None
        if email is not None and (len(email) > 254 or not EMAIL.fullmatch(email)):
            bad("email", f"{email!r}: expected an address like ada@example.org")
        student_id = cell.get("id") or None
        if student_id is not None and not STUDENT_ID.fullmatch(student_id):
            bad("id", f"{student_id!r}: expected 1-64 letters, digits or _.:/- (starting with a letter or digit)")
        for column, value in (("email", email), ("id", student_id)):
            if value is None:
                continue
            key = (course, column, value.lower())
            if key in identities:
                bad(column, f"{value!r} is on line {identities[key]} too (in course {course}: an LMS would put "
                            "both learners' grades on one)")
            else:
                identities[key] = line
        section = cell.get("section") or None
        if section is not None and person_name_error(section):
            bad("section", f"{section!r}: expected 1-128 characters of text")
        role = (cell.get("role") or "learner").lower()
        if role not in ROLES:
            bad("role", f"{role!r}: expected one of {', '.join(ROLES)}")
        entries.append(RosterEntry(name, login, course, email, student_id, role, line, section, not login))
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ConfigErrors(errors)
    if not entries:
        raise ConfigError("no learners: only a header row", file=path)
    return Roster(tuple(with_logins(entries, set(logins))), tuple(h for h in header if h not in COLUMNS), path)


def derive_login(name: str) -> str:
    """A handle made from a person's name: ASCII, lower case, words joined by dots, `Last, First` turned round."""
    if name.count(",") == 1:
        last, first = name.split(",")
        name = f"{first} {last}"
    folded = "".join(FOLDED.get(c, c) for c in unicodedata.normalize("NFKD", name))
    ascii_text = folded.encode("ascii", "ignore").decode("ascii").lower()
    words = re.findall(r"[a-z0-9]+", ascii_text)
    return ".".join(words)[:60].strip(".") or "learner"


def with_logins(entries: list[RosterEntry], taken: set[str]) -> list[RosterEntry]:
    """Every entry with a login: derived ones made unique against `taken` and each other."""
    taken = set(taken)
    out = []
    for e in entries:
        if e.derived:
            base = derive_login(e.name)
            login, n = base, 1
            while login in taken:
                n += 1
                login = f"{base}{n}"
            e = replace(e, login=login)
        taken.add(e.login)
        out.append(e)
    return out


def import_roster(store: Store, roster: Roster, tokens_file: Path, expires_at: float | None = None) -> Roster:
    """Create every account of `roster` and write their tokens to `tokens_file`; the roster as created (derived
    logins made unique against the accounts there are).

    `tokens_file` must not exist yet. Nothing is created if it cannot be, or if any login is taken.
    """
    accounts = {a.user.name: a.user for a in store.accounts()}
    for e in roster.entries:
        held = accounts.get(derive_login(e.name)) if e.derived else None
        if held is not None and held.course == e.course and held.full_name == e.name:
            raise ConfigError(f"{e.name!r} has an account in {e.course} already (login {held.name}); nothing was "
                              "added", file=roster.file, line=e.line, field="name")
    given = {e.login for e in roster.entries if not e.derived}
    roster = replace(roster, entries=tuple(with_logins([replace(e, login="") if e.derived else e
                                                        for e in roster.entries], set(accounts) | given)))
    handle = _create_private(tokens_file)
    try:
        tokens = [new_token() for _ in roster.entries]
        store.add_users([NewUser(e.login, e.role, e.course, hash_token(t), e.email, e.student_id, expires_at,
                                 e.name, e.section) for e, t in zip(roster.entries, tokens)])
    except (NameTaken, IdentityTaken) as exc:
        handle.close()
        tokens_file.unlink(missing_ok=True)
        entry = roster.entries[exc.index]
        if isinstance(exc, NameTaken):
            message, field = f"{entry.login!r} has an account already; nothing was added", "login"
        else:
            message = f"{exc.value!r} is the {exc.field} of account {exc.holder!r} in {entry.course} already; " \
                      "nothing was added"
            field = exc.field
        raise ConfigError(message, file=roster.file, line=entry.line, field=field) from None
    except BaseException:
        handle.close()
        tokens_file.unlink(missing_ok=True)
        raise
    with handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(csvcells.row(["name", "login", "course", "email", "id", "token"]))
        for e, token in zip(roster.entries, tokens):
            # A name or an email may begin with = + or -: no cell of the file runs as a formula.
            writer.writerow(csvcells.row([e.name, e.login, e.course, e.email, e.student_id, token]))
        handle.flush()
        os.fsync(handle.fileno())
    return roster


def _create_private(path: Path):
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise ConfigError("exists already: tokens are shown once, so their file is never overwritten; "
                          "name a new one", file=path, field="-o") from None
    except OSError as exc:
        raise ConfigError(f"cannot create: {exc.strerror or exc}", file=path, field="-o") from None
    return os.fdopen(descriptor, "w", encoding="utf-8", newline="")
