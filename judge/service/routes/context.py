"""What every route shares: the service's parts, the limits on who may ask how often, and the lookups
that answer the same error wherever a route makes them (an unknown problem, a submission that is not
the caller's).

A route's parameter typed `ctx.Caller` is handed the account of the request's bearer token (401
without one, 429 past the account's rate or the client's limit on unknown tokens); typed
`ctx.Instructor`, the same account if it is an instructor's (403 for a learner).
"""

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request

from judge.base.errors import ConfigError
from judge.service.accounts import authenticate
from judge.service.config import ServiceConfig
from judge.service.queue import Queue
from judge.service.ratelimit import RateLimiter
from judge.service.responses import ApiError
from judge.service.similarity import Fingerprints
from judge.service.storage import Quota, Store, Submission, User

PREFIX = "/api/v1"
MAX_OFFSET = 1 << 31     # far past any real listing, and inside every database's integers


@dataclass
class ApiContext:
    """The API over `store` (accounts, submissions), `queue` (to workers) and `judge` (problems)."""

    config: ServiceConfig
    store: Store
    queue: Queue
    judge: object
    limiter: RateLimiter = field(init=False)
    failures: RateLimiter = field(init=False)
    quota: Quota = field(init=False)
    prints: Fingerprints = field(default_factory=Fingerprints)   # each of the course's sources parsed once

    def __post_init__(self) -> None:
        self.limiter = RateLimiter(self.config.rate_per_minute, self.config.rate_burst)
        # Unknown tokens, per client address: each costs a database lookup, and guessing is what they are.
        self.failures = RateLimiter(self.config.auth_failures_per_minute, self.config.auth_failures_burst)
        self.quota = Quota(self.config.max_queued, self.config.max_queued_bytes)

        def instructor(user: Annotated[User, Depends(self.caller)]) -> User:
            if user.role != "instructor":
                raise ApiError(403, "instructors only")
            return user

        # The types a route's parameter takes to be handed the account asking (an instructor's).
        self.Caller = Annotated[User, Depends(self.caller)]
        self.Instructor = Annotated[User, Depends(instructor)]

    def identify(self, token: str, client: str) -> User | None:
        """The account of `token`, or None (counted against `client`'s failures; 429 past their limit)."""
        wait = self.failures.wait(client)
        if wait:
            raise ApiError(429, f"too many requests with unknown tokens from {client}; retry in {wait:.0f} s",
                           {"Retry-After": str(max(1, round(wait + 0.5)))})
        user = authenticate(self.store, token)
        if user is None:
            self.failures.take(client)
        return user

    def caller(self, request: Request) -> User:
        """The account asking (a dependency of every route that needs a token)."""
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError(401, "missing token: send `Authorization: Bearer TOKEN`",
                           {"WWW-Authenticate": "Bearer"})
        user = self.identify(token.strip(), request.client.host if request.client else "")
        if user is None:
            raise ApiError(401, "unknown, revoked, expired or disabled token", {"WWW-Authenticate": "Bearer"})
        wait = self.limiter.take(str(user.id))
        if wait:
            raise ApiError(429, f"rate limit of {self.config.rate_per_minute:g} requests per minute exceeded; "
                                f"retry in {wait:.1f} s", {"Retry-After": str(max(1, round(wait + 0.5)))})
        return user

    def known_problem(self, problem_id: str):
        """The problem, loaded; 404 when there is none of this id, 500 when its files do not load."""
        if problem_id not in self.judge.problem_ids():
            raise ApiError(404, f"no problem {problem_id!r}")
        try:
            return self.judge.problem(problem_id)
        except ConfigError as exc:
            raise ApiError(500, f"problem {problem_id!r} cannot be loaded: {exc}") from None

    def readable(self, submission_id: str, user: User) -> tuple[Submission, User]:
        """The submission and its owner if `user` may read it (theirs, or their course's for an instructor)."""
        found = self.store.get(submission_id) if len(submission_id) <= 64 else None
        if found is not None:
            submission, owner = found
            if owner.id == user.id or (user.role == "instructor" and owner.course == user.course):
                return found
        # The same answer whether it does not exist or is someone else's: ids are not to be probed.
        raise ApiError(404, f"no submission {submission_id!r} of yours")

    def starters(self) -> dict[str, str]:
        """Every problem's starter code (what every submission shares, never counted as copied)."""
        problems, _ = self.judge.problem_set.load()
        return {p.id: p.starter for p in problems}

