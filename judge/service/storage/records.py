"""What the store holds and hands out: submissions' states, accounts, regrade flips, and the errors of
adding them (a name or an identity taken, a learner's quota passed). Plain frozen dataclasses, no
database types: every face and the workers read these."""
from __future__ import annotations

from dataclasses import dataclass

from judge.base.errors import ConfigError

QUEUED, RUNNING, DONE = "queued", "running", "done"
ROLES = ("learner", "instructor")



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

