"""Progress: every judged attempt, kept in a local SQLite database.

The database lives in the user's data directory (`JUDGE_HOME` overrides it)
and records, per attempt, the problem, the time, the verdict, passed/total,
whether only the public examples ran, and a SHA-256 of the submission's
source (never the source itself). `judge list` derives solved / attempted /
new from it and `judge history` lists it.

Several judges may write at once (two terminals, a notebook and a terminal):
the database runs in WAL mode, every write is one `BEGIN IMMEDIATE`
transaction and waits for a busy writer instead of failing. Progress is a
convenience, never a reason to stop judging: a corrupted, locked or
unwritable database turns into a `ProgressUnavailable` whose message the
caller shows as a warning.
"""
from __future__ import annotations

import enum
import hashlib
import os
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

DB_NAME = "progress.sqlite3"
BUSY_TIMEOUT_MS = 10_000  # a concurrent writer holds the lock for milliseconds; wait rather than fail

# The schema, version by version: a new database runs every step, an older one the steps it
# lacks, each writer in one transaction. Statement by statement: executescript() would COMMIT
# the open transaction.
_SCHEMA = {
    1: [
        """CREATE TABLE IF NOT EXISTS attempts (
            id            INTEGER PRIMARY KEY AUTOINCREMENT,
            problem       TEXT    NOT NULL,
            at            REAL    NOT NULL,      -- seconds since the epoch (UTC)
            verdict       TEXT    NOT NULL,
            passed        INTEGER NOT NULL,
            total         INTEGER NOT NULL,
            examples_only INTEGER NOT NULL,      -- 1: `judge run --examples` ("Run", not "Submit")
            sha256        TEXT    NOT NULL,      -- of the submission's source text
            submission    TEXT    NOT NULL,      -- the path or label the submission was judged as
            time_ms       REAL    NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS attempts_problem ON attempts (problem, at)",
    ],
    2: [  # self-test answers of course units (judge quiz); the latest answer counts
        """CREATE TABLE IF NOT EXISTS answers (
            id            INTEGER PRIMARY KEY AUTOINCREMENT,
            unit          TEXT    NOT NULL,
            question      TEXT    NOT NULL,
            at            REAL    NOT NULL,
            answer        TEXT    NOT NULL,      -- as understood: "196", "(4, 36, 512)", "b"
            correct       INTEGER NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS answers_unit ON answers (unit, question, at)",
    ],
    3: [  # history keeps the code; hints and solutions viewed
        "ALTER TABLE attempts ADD COLUMN source TEXT",  # NULL in attempts recorded before schema 3
        """CREATE TABLE IF NOT EXISTS events (
            id            INTEGER PRIMARY KEY AUTOINCREMENT,
            problem       TEXT    NOT NULL,
            at            REAL    NOT NULL,
            kind          TEXT    NOT NULL,      -- "hint" (detail: the level) or "solution" ("before" / "after")
            detail        TEXT    NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS events_problem ON events (problem, kind)",
    ],
}
SCHEMA_VERSION = max(_SCHEMA)


class ProgressUnavailable(Exception):
    """The progress database cannot be used; the message is a one-line warning."""


class Status(str, enum.Enum):
    SOLVED = "solved"        # accepted on a full run (hidden tests included)
    ATTEMPTED = "attempted"  # judged at least once, never accepted on a full run
    NEW = "new"              # never judged

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Attempt:
    id: int
    problem: str
    at: float
    verdict: str
    passed: int
    total: int
    examples_only: bool
    sha256: str
    submission: str
    time_ms: float
    source: str | None = None        # None for attempts recorded before the judge kept sources

    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.at))

    def to_json(self) -> dict:
        return {"id": self.id, "problem": self.problem, "at": round(self.at, 3), "when": self.when(),
                "verdict": self.verdict, "passed": self.passed, "total": self.total,
                "examples_only": self.examples_only, "sha256": self.sha256,
                "submission": self.submission, "time_ms": round(self.time_ms, 1)}


def data_dir() -> Path:
    """The per-user data directory of tensor-judge (XDG on Linux, the platform's own elsewhere)."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "tensor-judge"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "tensor-judge"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tensor-judge"


def home() -> Path:
    """Where the judge keeps user data: `$JUDGE_HOME` when set, else `data_dir()`."""
    explicit = os.environ.get("JUDGE_HOME")
    return Path(explicit).expanduser() if explicit else data_dir()


def recording() -> bool:
    """Whether attempts, answers and hints are recorded: unless JUDGE_NO_RECORD is set (and not 0)."""
    return os.environ.get("JUDGE_NO_RECORD", "") in ("", "0")


def source_hash(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()


class ProgressStore:
    """The attempts database at `path` (default: `home() / progress.sqlite3`).

    Each call opens its own short-lived connection, so a store can be kept by
    a long-lived `Judge` (a notebook) without holding the file open or locked.
    """

    def __init__(self, path: Path | str | None = None):
        self._path = Path(path) if path is not None else None

    @property
    def path(self) -> Path:
        # Resolved per use: a long-lived Judge follows a JUDGE_HOME set after it was built.
        return self._path if self._path is not None else home() / DB_NAME

    # ------------------------------------------------------------ writing
    def record(self, *, problem: str, verdict: str, passed: int, total: int, examples_only: bool,
               source: str, submission: str, time_ms: float, at: float | None = None) -> int:
        """Add one attempt in its own transaction; returns its id."""
        row = (problem, time.time() if at is None else at, verdict, int(passed), int(total),
               int(examples_only), source_hash(source), submission, float(time_ms), source)
        with self._connect(create=True) as db:
            db.execute("BEGIN IMMEDIATE")
            cursor = db.execute(
                "INSERT INTO attempts (problem, at, verdict, passed, total, examples_only, sha256, "
                "submission, time_ms, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
            db.execute("COMMIT")
            return int(cursor.lastrowid)

    def record_answer(self, *, unit: str, question: str, answer: str, correct: bool,
                      at: float | None = None) -> int:
        """Add one answer to a unit's self-test question; the latest answer is the one that counts."""
        with self._connect(create=True) as db:
            db.execute("BEGIN IMMEDIATE")
            cursor = db.execute("INSERT INTO answers (unit, question, at, answer, correct) VALUES (?, ?, ?, ?, ?)",
                                (unit, question, time.time() if at is None else at, answer, int(correct)))
            db.execute("COMMIT")
            return int(cursor.lastrowid)

    def record_event(self, *, problem: str, kind: str, detail: str, at: float | None = None) -> None:
        """Note that a hint (detail: its level) or the solution (detail: before / after) was shown."""
        with self._connect(create=True) as db:
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO events (problem, at, kind, detail) VALUES (?, ?, ?, ?)",
                       (problem, time.time() if at is None else at, kind, detail))
            db.execute("COMMIT")

    # ------------------------------------------------------------ reading
    def events(self, problem: str | None = None, kind: str | None = None) -> list[tuple[str, float, str, str]]:
        """(problem, at, kind, detail) of hints and solutions shown, oldest first."""
        if not self.path.exists():
            return []
        query, params = "SELECT problem, at, kind, detail FROM events WHERE 1 = 1", ()
        if problem is not None:
            query, params = query + " AND problem = ?", params + (problem,)
        if kind is not None:
            query, params = query + " AND kind = ?", params + (kind,)
        with self._connect(create=False) as db:
            if _version(db) < 3:
                return []
            return [tuple(r) for r in db.execute(query + " ORDER BY at, id", params).fetchall()]

    def hint_level(self, problem: str) -> int:
        """The highest hint level shown for `problem` (0: none yet)."""
        levels = [int(detail) for _, _, _, detail in self.events(problem, "hint") if detail.isdigit()]
        return max(levels, default=0)

    # ------------------------------------------------------------ export, import, reset
    def export(self) -> dict:
        """Everything recorded, as one JSON-able object (sources included)."""
        if not self.path.exists():
            return {"format": EXPORT_FORMAT, "schema": SCHEMA_VERSION, "attempts": [], "answers": [], "events": []}
        with self._connect(create=True) as db:  # upgrades an older file first, so every table exists
            attempts = db.execute("SELECT problem, at, verdict, passed, total, examples_only, sha256, submission, "
                                  "time_ms, source FROM attempts ORDER BY at, id").fetchall()
            answers = db.execute("SELECT unit, question, at, answer, correct FROM answers ORDER BY at, id").fetchall()
            events = db.execute("SELECT problem, at, kind, detail FROM events ORDER BY at, id").fetchall()
        keys_a = ("problem", "at", "verdict", "passed", "total", "examples_only", "sha256", "submission", "time_ms",
                  "source")
        return {"format": EXPORT_FORMAT, "schema": SCHEMA_VERSION,
                "attempts": [dict(zip(keys_a, r)) for r in attempts],
                "answers": [dict(zip(("unit", "question", "at", "answer", "correct"), r)) for r in answers],
                "events": [dict(zip(("problem", "at", "kind", "detail"), r)) for r in events]}

    def import_(self, data: dict, origin: str = "the import") -> tuple[int, int]:
        """Add an export's records, skipping those already here; returns (added, skipped).

        Checked whole before anything is written: a malformed file changes nothing.
        """
        rows = _import_rows(data, origin)
        added = skipped = 0
        with self._connect(create=True) as db:
            db.execute("BEGIN IMMEDIATE")
            for table, columns, values in rows:
                where = " AND ".join(f"{c} IS ?" for c in columns)
                if db.execute(f"SELECT 1 FROM {table} WHERE {where} LIMIT 1", values).fetchone():
                    skipped += 1
                    continue
                db.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                           values)
                added += 1
            db.execute("COMMIT")
        return added, skipped

    def reset(self) -> int:
        """Delete every record (attempts, answers, hints, solutions viewed); returns how many."""
        if not self.path.exists():
            return 0
        with self._connect(create=True) as db:
            db.execute("BEGIN IMMEDIATE")
            count = sum(db.execute(f"DELETE FROM {table}").rowcount for table in ("attempts", "answers", "events"))
            db.execute("COMMIT")
        return count

    def attempt(self, attempt_id: int) -> Attempt | None:
        found = self._attempts("WHERE id = ?", (int(attempt_id),))
        return found[0] if found else None

    def answers(self, unit: str) -> dict[str, tuple[str, bool]]:
        """The latest answer to each question of `unit`: question id -> (answer, right)."""
        if not self.path.exists():
            return {}
        with self._connect(create=False) as db:
            if _version(db) < 2:
                return {}
            rows = db.execute("SELECT question, answer, correct FROM answers WHERE unit = ? "
                              "ORDER BY at, id", (unit,)).fetchall()
        return {question: (answer, bool(correct)) for question, answer, correct in rows}

    def attempts(self, problem: str | None = None, limit: int | None = None) -> list[Attempt]:
        """Attempts, newest first, optionally of one problem."""
        where, params = ("WHERE problem = ?", (problem,)) if problem is not None else ("", ())
        where += " ORDER BY at DESC, id DESC"
        if limit is not None:
            where, params = where + " LIMIT ?", params + (int(limit),)
        return self._attempts(where, params)

    def _attempts(self, where: str, params: tuple) -> list[Attempt]:
        if not self.path.exists():
            return []
        with self._connect(create=False) as db:
            version = _version(db)
            if version == 0:
                return []
            source = "source" if version >= 3 else "NULL"  # read-only: an older file is not upgraded
            rows = db.execute("SELECT id, problem, at, verdict, passed, total, examples_only, sha256, submission, "
                              f"time_ms, {source} FROM attempts {where}", params).fetchall()
        return [Attempt(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], r[8], r[9], r[10]) for r in rows]

    def statuses_or_new(self, problem_ids: list[str]) -> tuple[dict[str, Status], str | None]:
        """Each problem's status, and a warning instead of an error when the database is unusable
        (`problem_statuses`; what `ProblemSet.listing` asks, so that the problem model imports no learner's module)."""
        return problem_statuses(problem_ids, self)

    def statuses(self, problem_ids: Iterable[str]) -> dict[str, Status]:
        """solved / attempted / new for each problem id."""
        ids = list(problem_ids)
        result = {pid: Status.NEW for pid in ids}
        if not self.path.exists():
            return result
        with self._connect(create=False) as db:
            if _version(db) == 0:
                return result
            rows = db.execute(
                "SELECT problem, MAX(verdict = 'accepted' AND examples_only = 0) FROM attempts GROUP BY problem"
            ).fetchall()
        for problem, solved in rows:
            if problem in result:
                result[problem] = Status.SOLVED if solved else Status.ATTEMPTED
        return result

    # ------------------------------------------------------------ connection
    def _connect(self, create: bool) -> "_Connection":
        return _Connection(self.path, create)


class _Connection:
    """A connection as a context manager that turns SQLite failures into ProgressUnavailable."""

    def __init__(self, path: Path, create: bool):
        self.path = path
        self.create = create
        self.db: sqlite3.Connection | None = None

    def __enter__(self) -> sqlite3.Connection:
        try:
            if self.create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE), never implicit.
            self.db = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            self.db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            version = _version(self.db)
            if version < SCHEMA_VERSION and self.create:
                self._upgrade(self.db, new=version == 0)
            elif version > SCHEMA_VERSION:
                raise ProgressUnavailable(f"progress database {self.path} was written by a newer tensor-judge "
                                          f"(schema {version}); progress is not recorded")
        except sqlite3.Error as exc:
            self._close()
            raise ProgressUnavailable(_explain(self.path, exc)) from None
        except OSError as exc:
            self._close()
            raise ProgressUnavailable(f"cannot create the progress database in {self.path.parent}: "
                                      f"{exc.strerror or exc}; set JUDGE_HOME to a writable directory") from None
        except ProgressUnavailable:
            self._close()
            raise
        return self.db

    @staticmethod
    def _upgrade(db: sqlite3.Connection, new: bool) -> None:
        """Bring the file to SCHEMA_VERSION (from nothing when `new`)."""
        if new:
            # WAL lets readers and one writer work at once; it is a property of the file, set once.
            # Switching the journal mode needs the file to itself and SQLite does not wait for that
            # (no busy handler), so a first writer racing another one retries for a while.
            for attempt in range(100):
                try:
                    db.execute("PRAGMA journal_mode = WAL")
                    break
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or attempt == 99:
                        raise
                    time.sleep(0.05)
        db.execute("BEGIN IMMEDIATE")
        try:
            for version in range(_version(db) + 1, SCHEMA_VERSION + 1):  # re-read: another writer may have won
                for statement in _SCHEMA[version]:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {version}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc is not None and self.db is not None and self.db.in_transaction:
                self.db.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # the original error is the one worth reporting
        finally:
            self._close()
        if isinstance(exc, sqlite3.Error):
            raise ProgressUnavailable(_explain(self.path, exc)) from None

    def _close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None


EXPORT_FORMAT = "tensor-judge-progress"
_IMPORT_TABLES = {
    "attempts": {"problem": str, "at": float, "verdict": str, "passed": int, "total": int, "examples_only": bool,
                 "sha256": str, "submission": str, "time_ms": float, "source": (str, type(None))},
    "answers": {"unit": str, "question": str, "at": float, "answer": str, "correct": bool},
    "events": {"problem": str, "at": float, "kind": str, "detail": str},
}


def _import_rows(data: object, origin: str) -> list[tuple[str, tuple[str, ...], tuple]]:
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ValueError(f"{origin}: not a tensor-judge progress export (expected \"format\": \"{EXPORT_FORMAT}\")")
    rows = []
    for table, columns in _IMPORT_TABLES.items():
        items = data.get(table, [])
        if not isinstance(items, list):
            raise ValueError(f"{origin}: {table}: expected a list")
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise ValueError(f"{origin}: {table}[{i}]: expected an object")
            values = []
            for column, kind in columns.items():
                value = item.get(column)
                kinds = kind if isinstance(kind, tuple) else (kind,)
                if float in kinds and isinstance(value, int) and not isinstance(value, bool):
                    value = float(value)
                if bool in kinds and value in (0, 1) and not isinstance(value, bool):
                    value = bool(value)
                if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
                    raise ValueError(f"{origin}: {table}[{i}].{column}: expected {kinds[0].__name__}, "
                                     f"got {type(value).__name__}")
                values.append(int(value) if isinstance(value, bool) else value)
            rows.append((table, tuple(columns), tuple(values)))
    return rows


def _version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def _explain(path: Path, exc: sqlite3.Error) -> str:
    text = str(exc)
    if isinstance(exc, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text):
        return (f"progress database {path} is corrupted ({text}); progress is not recorded. "
                f"Move the file aside to start a new one")
    if "readonly" in text or "unable to open" in text:
        return (f"progress database {path} is not writable ({text}); progress is not recorded. "
                f"Set JUDGE_HOME to a writable directory")
    if "locked" in text or "busy" in text:
        return f"progress database {path} stayed locked for {BUSY_TIMEOUT_MS // 1000} s; this attempt is not recorded"
    return f"progress database {path}: {text}; progress is not recorded"


def problem_statuses(problem_ids: list[str], store: ProgressStore) -> tuple[dict[str, Status], str | None]:
    """Each problem's status, and a warning instead of an error when the database is unusable."""
    try:
        return store.statuses(problem_ids), None
    except ProgressUnavailable as exc:
        return {pid: Status.NEW for pid in problem_ids}, str(exc)
