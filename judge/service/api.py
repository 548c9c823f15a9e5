"""The HTTP API (FastAPI): submissions, problems' public parts and hints, accounts by bearer token, and the
instructors' views of their course (gradebook, similarity, analytics; the review pages are judge.service.review).

Fixed paths under /api/v1 (see the README); every error is JSON
`{"error": {"status": N, "message": "..."}}` with its HTTP status, an
unexpected one and a database that does not answer (503, Retry-After)
included. The OpenAPI description is served at /api/v1/openapi.json; FastAPI's
/docs and /redoc pages are not, since they load their scripts from a CDN and
the service works offline.
"""

import json
import logging
import time
from typing import Annotated

from fastapi import Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from judge.base.errors import ConfigError
from judge.base.escape import escape_tree
from judge.service.accounts import authenticate
from judge.service.config import ServiceConfig
from judge.service.faults import DATABASE_DOWN, describe
from judge.service.course import Course, parse_course
from judge.service.feedback import for_learner
from judge.service.gradebook import gradebook, gradebook_csv, gradebook_json, wide as wide_rows, wide_csv, wide_json
from judge.service.queue import Queue
from judge.service.ratelimit import RateLimiter
from judge.service.analytics import analytics, analytics_json
from judge.service.review import add_review
from judge.service.classnorm import UNUSUAL
from judge.service.similarity import (Fingerprints, by_problem, course_found, pair_similarity, shared_regions,
                                      similar_found)
from judge.service.storage import DONE, QUEUED, RUNNING, QuotaExceeded, Quota, Store, User

log = logging.getLogger("judge.service.api")
PREFIX = "/api/v1"


MAX_OFFSET = 1 << 31     # far past any real listing, and inside every database's integers


class AsciiJSON(JSONResponse):
    """JSON with every non-ASCII character escaped, and every text first shown as every face shows it
    (judge.base.escape): a lone surrogate echoed in a message reads `\\ud800`, never a JSON escape of one that
    a strict reader refuses, and a report's bidirectional or control characters stay visible."""

    def render(self, content) -> bytes:
        return json.dumps(escape_tree(content), ensure_ascii=True, separators=(",", ":")).encode("ascii")


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> AsciiJSON:
    return AsciiJSON({"error": {"status": status, "message": message}}, status_code=status, headers=headers)


class ApiError(Exception):
    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers


class SubmissionIn(BaseModel):
    problem: str = Field(min_length=1, max_length=64, description="a problem id, as in GET /api/v1/problems")
    source: str = Field(description="the Python source defining the problem's entry point")


class BatchIn(BaseModel):
    submissions: list[SubmissionIn] = Field(min_length=1)


class BodyLimit:
    """Refuses request bodies over `limit` bytes with 413, before any of it is parsed."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await _send_error(send, 413, f"the request body is over {self.limit} bytes")
        body, more = b"", True
        while more:  # read at most limit + 1 bytes of a body without a (truthful) length
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                return await _send_error(send, 413, f"the request body is over {self.limit} bytes")
        replayed = False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        return await self.app(scope, replay, send)


class HostCheck:
    """Answers 400 (JSON) to a request whose Host header is not in `allowed` ("*" allows any;
    "*.example.org" any subdomain): a service behind a name is not served under any other."""

    def __init__(self, app, allowed: tuple[str, ...]):
        self.app, self.allowed = app, tuple(h.lower() for h in allowed)

    def ok(self, host: str) -> bool:
        if "*" in self.allowed:
            return True
        if host.startswith("["):                      # [::1]:8000
            name = host[1:].partition("]")[0]
        else:
            name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
        name = name.lower()
        return any(name == a or (a.startswith("*.") and name.endswith(a[1:])) for a in self.allowed)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        if not self.ok(host):
            return await _send_error(send, 400, f"Host {host!r} is not served here "
                                                "(JUDGE_SERVICE_ALLOWED_HOSTS lists the names that are)")
        return await self.app(scope, receive, send)


async def _send_error(send, status: int, message: str) -> None:
    response = error_response(status, message)
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})


def create_app(config: ServiceConfig, store: Store, queue: Queue, judge) -> FastAPI:
    """The API over `store` (accounts, submissions), `queue` (to workers) and `judge` (problems)."""
    app = FastAPI(title="tensor-judge", version="1", openapi_url=f"{PREFIX}/openapi.json", docs_url=None,
                  redoc_url=None, swagger_ui_oauth2_redirect_url=None, default_response_class=AsciiJSON)
    limiter = RateLimiter(config.rate_per_minute, config.rate_burst)
    # Unknown tokens, per client address: each costs a database lookup, and guessing is what they are.
    failures = RateLimiter(config.auth_failures_per_minute, config.auth_failures_burst)
    quota = Quota(config.max_queued, config.max_queued_bytes)
    prints = Fingerprints()      # the course's sources are compared on every report: each parsed once
    parsed_courses: dict[tuple[str, str, str], Course] = {}     # a learner's every read applies its course file

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.message, exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return error_response(exc.status_code, str(exc.detail), getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "body"
        return error_response(422, f"{where}: {first.get('msg')}")

    @app.exception_handler(SQLAlchemyError)
    async def database_error(_request: Request, exc: SQLAlchemyError) -> JSONResponse:
        if isinstance(exc, DATABASE_DOWN):
            log.warning("the database does not answer (%s); answered 503", describe(exc))
            return error_response(503, "the database does not answer; nothing was stored: retry later",
                                  {"Retry-After": str(config.db_retry_after_s)})
        log.error("database error", exc_info=exc)
        return error_response(500, "internal error (the database refused the request); nothing was stored")

    @app.exception_handler(Exception)
    async def unexpected(_request: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected error", exc_info=exc)
        return error_response(500, f"internal error ({type(exc).__name__})")

    def identify(token: str, client: str) -> User | None:
        """The account of `token`, or None (counted against `client`'s failures; 429 past their limit)."""
        wait = failures.wait(client)
        if wait:
            raise ApiError(429, f"too many requests with unknown tokens from {client}; retry in {wait:.0f} s",
                           {"Retry-After": str(max(1, round(wait + 0.5)))})
        user = authenticate(store, token)
        if user is None:
            failures.take(client)
        return user

    def caller(request: Request) -> User:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError(401, "missing token: send `Authorization: Bearer TOKEN`",
                           {"WWW-Authenticate": "Bearer"})
        user = identify(token.strip(), request.client.host if request.client else "")
        if user is None:
            raise ApiError(401, "unknown, revoked, expired or disabled token", {"WWW-Authenticate": "Bearer"})
        wait = limiter.take(str(user.id))
        if wait:
            raise ApiError(429, f"rate limit of {config.rate_per_minute:g} requests per minute exceeded; "
                                f"retry in {wait:.1f} s", {"Retry-After": str(max(1, round(wait + 0.5)))})
        return user

    Caller = Annotated[User, Depends(caller)]

    def instructor(user: Caller) -> User:
        if user.role != "instructor":
            raise ApiError(403, "instructors only")
        return user

    Instructor = Annotated[User, Depends(instructor)]

    def create(user: User, items: list[tuple[str, str]]) -> list[str]:
        try:
            return store.create(user, items, quota)
        except QuotaExceeded as exc:
            raise ApiError(429, str(exc), {"Retry-After": str(max(1, min(300, round(exc.wait_s))))}) from None

    def checked(item: SubmissionIn, index: int | None = None) -> tuple[str, str]:
        where = "" if index is None else f"submissions.{index}."
        if item.problem not in judge.problem_ids():
            raise ApiError(404, f"{where}problem: no problem {item.problem!r} (GET {PREFIX}/problems lists them)")
        try:
            item.source.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ApiError(422, f"{where}source: not valid Unicode (a lone surrogate at character {exc.start})") \
                from None
        size = len(item.source.encode("utf-8"))
        if size > config.max_source_bytes:
            raise ApiError(413, f"{where}source: {size} bytes; the limit is {config.max_source_bytes}")
        if "\x00" in item.source:
            raise ApiError(422, f"{where}source: contains a NUL character")
        return item.problem, item.source

    def enqueue_all(ids: list[str]) -> None:
        for submission_id in ids:  # a failure leaves the row queued; the reaper enqueues it later
            queue.enqueue(submission_id)

    @app.get(f"{PREFIX}/health")
    def health() -> dict:
        """What requests would meet (no token needed): the database answers (else 503), the problem set
        loads (else 503, saying why), how many problems are served and which are broken."""
        store.counts()
        try:
            problems, broken = judge.problem_set.load()
        except ConfigError as exc:
            raise ApiError(503, f"the problem set cannot be used: {exc}", {"Retry-After": "60"}) from None
        return {"status": "ok", "database": "ok", "problems": len(problems),
                "broken": [{"id": b.id, "error": b.error} for b in broken]}

    @app.get(f"{PREFIX}/problems")
    def list_problems(user: Caller) -> dict:
        """Every problem: id, title, difficulty, tags, framework."""
        problems, _ = judge.problem_set.load()  # a broken problem is not served; the others are
        return {"problems": [{"id": p.id, "title": p.title, "difficulty": p.difficulty, "tags": list(p.tags),
                              "framework": p.framework} for p in problems]}

    @app.get(f"{PREFIX}/problems/{{problem_id}}")
    def get_problem(problem_id: str, user: Caller) -> dict:
        """A problem's public parts: statement, rules, signature, starter, public examples, limits, and the
        hints you have been given (POST .../hints gives the next)."""
        p = known_problem(problem_id)
        reached = min(store.hints_given(user.id, p.id), len(p.hints))
        return {"id": p.id, "title": p.title, "difficulty": p.difficulty, "tags": list(p.tags),
                "framework": p.framework, "entry_point": p.entry_point, "signature": p.signature,
                "statement": p.statement, "rules": [{"id": r.id, "text": r.text} for r in p.rules],
                "starter": p.starter, "examples": examples_of(p),
                "hints": [h.strip() for h in p.hints[:reached]], "hint_levels": len(p.hints),
                "limits": {"time_s": p.limits.time_s, "memory_mb": p.limits.memory_mb}}

    def examples_of(problem) -> list[dict]:
        """The public examples as `judge show` prints them: each input and the reference's output as text."""
        from judge.model.cases import MAIN
        from judge.render import show_input, show_value

        shown = []
        for example in judge.examples(problem):
            case, main = example.case, example.expected[MAIN]
            shown.append({"name": case.name,
                          "inputs": {name: show_input(spec, case.args[case.arg_index(name)], "")
                                     for name, spec in case.test.inputs.items()},
                          "output": f"raises {main.error.type}" if main.error is not None else show_value(main.value, ""),
                          "explanation": (case.test.explanation or "").strip()})
        return shown

    def known_problem(problem_id: str):
        if problem_id not in judge.problem_ids():
            raise ApiError(404, f"no problem {problem_id!r}")
        try:
            return judge.problem(problem_id)
        except ConfigError as exc:
            raise ApiError(500, f"problem {problem_id!r} cannot be loaded: {exc}") from None

    def hint_json(problem, level: int) -> dict:
        return {"problem": problem.id, "level": level, "levels": len(problem.hints),
                "text": problem.hints[level - 1].strip(), "last": level == len(problem.hints)}

    @app.get(f"{PREFIX}/problems/{{problem_id}}/hints")
    def get_hints(problem_id: str, user: Caller) -> dict:
        """The hints you have been given on a problem, in order, and how many levels there are."""
        p = known_problem(problem_id)
        reached = min(store.hints_given(user.id, p.id), len(p.hints))
        return {"problem": p.id, "levels": len(p.hints), "shown": [hint_json(p, n) for n in range(1, reached + 1)]}

    @app.post(f"{PREFIX}/problems/{{problem_id}}/hints")
    def next_hint(problem_id: str, user: Caller) -> dict:
        """The next hint (one level at a time, from a nudge to the key idea, as `judge hint` gives them);
        past the last, the last again."""
        p = known_problem(problem_id)
        if not p.hints:
            raise ApiError(404, f"{p.id} has no hints")
        return hint_json(p, store.next_hint(user.id, p.id, len(p.hints)))

    @app.post(f"{PREFIX}/submissions", status_code=202)
    def submit(item: SubmissionIn, user: Caller) -> dict:
        """Queue one submission; poll GET /api/v1/submissions/{id} for its report."""
        ids = create(user, [checked(item)])
        enqueue_all(ids)
        return {"id": ids[0]}

    @app.post(f"{PREFIX}/submissions/batch", status_code=202)
    def submit_batch(batch: BatchIn, user: Caller) -> dict:
        """Queue several submissions at once (all or none); their ids in order."""
        if len(batch.submissions) > config.max_batch:
            raise ApiError(413, f"submissions: {len(batch.submissions)} in one batch; the limit is {config.max_batch}")
        items = [checked(item, i) for i, item in enumerate(batch.submissions)]
        ids = create(user, items)
        enqueue_all(ids)
        return {"ids": ids}

    @app.get(f"{PREFIX}/submissions")
    def list_submissions(user: Caller, limit: int = Query(50, ge=1, le=500),
                         offset: int = Query(0, ge=0, le=MAX_OFFSET),
                         status: str | None = Query(None, pattern=f"^({QUEUED}|{RUNNING}|{DONE})$")) -> dict:
        """Newest first: yours, or (instructors) every submission of your course; no reports."""
        found = store.visible_to(user, limit=limit, offset=offset, status=status)
        return {"submissions": [s.to_json(with_report=False) for s in found]}

    def readable(submission_id: str, user: User):
        """The submission and its owner if `user` may read it (theirs, or their course's for an instructor)."""
        found = store.get(submission_id) if len(submission_id) <= 64 else None
        if found is not None:
            submission, owner = found
            if owner.id == user.id or (user.role == "instructor" and owner.course == user.course):
                return found
        # The same answer whether it does not exist or is someone else's: ids are not to be probed.
        raise ApiError(404, f"no submission {submission_id!r} of yours")

    @app.get(f"{PREFIX}/submissions/{{submission_id}}")
    def get_submission(submission_id: str, user: Caller) -> dict:
        """Status, the source and, once done, the report as `judge run --json` gives it; to a learner, as much
        of it as the course file's `feedback` for the problem shows now (judge.service.feedback)."""
        submission, _ = readable(submission_id, user)
        data = submission.to_json(with_source=True)
        if user.role != "instructor":
            course = course_file(user.course)
            assignment = course.assignment(submission.problem, user.name) if course is not None else None
            data["report"] = for_learner(submission.report, assignment, time.time())
        return data

    def course_file(course: str) -> Course | None:
        """The course's file as stored (None: it has none, and every report is whole), parsed once per text."""
        stored = store.course_definition(course)
        if stored is None:
            return None
        key = (course, *stored)
        if key not in parsed_courses:
            if len(parsed_courses) > 64:
                parsed_courses.clear()
            parsed_courses[key] = parse_course(stored[0], stored[1])
        return parsed_courses[key]

    @app.get(f"{PREFIX}/gradebook")
    def get_gradebook(user: Instructor, format: str = Query("json", pattern="^(json|csv)$"), wide: bool = False,
                      points_row: bool = False):
        """Instructors: per learner of your course and problem, the best verdict, attempts, first accepted and
        points; `wide`: a row per learner, a column of points per problem and the total (an LMS's CSV)."""
        if wide:
            graded, rows = wide_rows(store, user.course)
            if format == "csv":
                return Response(wide_csv(graded, rows, points_row=points_row), media_type="text/csv; charset=utf-8",
                                headers={"Content-Disposition":
                                         f'attachment; filename="{user.course}-gradebook-wide.csv"'})
            return wide_json(graded, rows)
        entries = gradebook(store, user.course)
        if format == "csv":
            return Response(gradebook_csv(entries), media_type="text/csv; charset=utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{user.course}-gradebook.csv"'})
        return gradebook_json(user.course, entries)

    def starters() -> dict[str, str]:
        """Every problem's starter code (what every submission shares, never counted as copied)."""
        problems, _ = judge.problem_set.load()
        return {p.id: p.starter for p in problems}

    def named(pairs: list, user: User) -> list[dict]:
        """Each pair as JSON with the two people's names (the roster's) beside their logins."""
        names = {u.name: u.display for u in store.course(user.course)[0]}
        return [{**p.to_json(), "a_name": names.get(p.a, p.a), "b_name": names.get(p.b, p.b)} for p in pairs]

    @app.get(f"{PREFIX}/similarity")
    def get_similarity(user: Instructor, problem: str | None = Query(None, min_length=1, max_length=64),
                       threshold: float = Query(0.8, ge=0.0, le=1.0),
                       unusual: float = Query(UNUSUAL, ge=0.0, le=100.0),
                       limit: int = Query(50, ge=1, le=500), offset: int = Query(0, ge=0, le=MAX_OFFSET)) -> dict:
        """Instructors: pairs of your course's learners whose submissions are at least `threshold` alike and
        at least `unusual` spreads above the class's typical pair on that problem (0: the threshold alone):
        to `problem`, or (without it) on any problem, with each pair's scores on every problem both submitted
        to. A page of `limit` pairs from `offset`; `total` counts them all, `common` those that reached the
        threshold but are typical of the class."""
        page = {"threshold": threshold, "unusual": unusual, "limit": limit, "offset": offset}
        if problem is None:
            _, submissions = store.course(user.course)
            found = course_found(by_problem(submissions), threshold, starters(), prints, unusual)
            return {"course": user.course, **page, "submissions": len(submissions), "total": len(found.pairs),
                    "common": found.common, "pairs": named(found.pairs[offset:offset + limit], user)}
        if problem not in judge.problem_ids():
            raise ApiError(404, f"no problem {problem!r}")
        _, submissions = store.course(user.course, problem)
        found = similar_found(submissions, threshold, starters().get(problem, ""), prints, unusual)
        return {"course": user.course, "problem": problem, **page, "submissions": len(submissions),
                "total": len(found.pairs), "common": found.common,
                "pairs": named(found.pairs[offset:offset + limit], user)}

    @app.get(f"{PREFIX}/similarity/compare")
    def compare(user: Instructor, a: str = Query(max_length=64), b: str = Query(max_length=64)) -> dict:
        """Instructors: two submissions of your course, how alike, and the lines each shares with the other."""
        (sa, oa), (sb, ob) = readable(a, user), readable(b, user)
        starter = starters().get(sa.problem, "") if sa.problem == sb.problem else ""
        ra, rb = shared_regions(sa.source, sb.source, starter)
        return {"similarity": round(pair_similarity(sa.source, sb.source, starter, prints), 3),
                "a": {"id": sa.id, "learner": oa.name, "name": oa.display, "problem": sa.problem, "shared_lines": ra},
                "b": {"id": sb.id, "learner": ob.name, "name": ob.display, "problem": sb.problem, "shared_lines": rb}}

    @app.get(f"{PREFIX}/analytics")
    def get_analytics(user: Instructor, problem: str | None = Query(None, min_length=1, max_length=64)) -> dict:
        """Instructors: per problem, how many of your learners made each named mistake, and the tests most failed."""
        return analytics_json(user.course, analytics(store, user.course, problem))

    def gradebook_for(user: User, wide: bool) -> str:
        if wide:
            return wide_csv(*wide_rows(store, user.course))
        return gradebook_csv(gradebook(store, user.course))

    add_review(app, store, starters, identify, gradebook_for, prints)
    app.add_middleware(BodyLimit, limit=config.max_request_bytes)
    app.add_middleware(HostCheck, allowed=config.allowed_hosts)
    return app
