"""The HTTP API (FastAPI): submissions, problems' public parts, accounts by bearer token.

Fixed paths under /api/v1 (see the README); every error is JSON
`{"error": {"status": N, "message": "..."}}` with its HTTP status. The
OpenAPI description is served at /api/v1/openapi.json; FastAPI's /docs and
/redoc pages are not, since they load their scripts from a CDN and the
service works offline.
"""

import logging
from typing import Annotated

from fastapi import Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from judge.errors import ConfigError
from judge.service.accounts import authenticate
from judge.service.config import ServiceConfig
from judge.service.queue import Queue
from judge.service.ratelimit import RateLimiter
from judge.service.storage import DONE, QUEUED, RUNNING, Store, User

log = logging.getLogger("judge.service.api")
PREFIX = "/api/v1"


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


async def _send_error(send, status: int, message: str) -> None:
    response = JSONResponse({"error": {"status": status, "message": message}}, status_code=status)
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})


def create_app(config: ServiceConfig, store: Store, queue: Queue, judge) -> FastAPI:
    """The API over `store` (accounts, submissions), `queue` (to workers) and `judge` (problems)."""
    app = FastAPI(title="tensor-judge", version="1", openapi_url=f"{PREFIX}/openapi.json", docs_url=None,
                  redoc_url=None, swagger_ui_oauth2_redirect_url=None)
    limiter = RateLimiter(config.rate_per_minute, config.rate_burst)

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": {"status": exc.status, "message": exc.message}}, status_code=exc.status,
                            headers=exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": {"status": exc.status_code, "message": str(exc.detail)}},
                            status_code=exc.status_code, headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "body"
        return JSONResponse({"error": {"status": 422, "message": f"{where}: {first.get('msg')}"}}, status_code=422)

    def caller(request: Request) -> User:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError(401, "missing token: send `Authorization: Bearer TOKEN`",
                           {"WWW-Authenticate": "Bearer"})
        user = authenticate(store, token.strip())
        if user is None:
            raise ApiError(401, "unknown token", {"WWW-Authenticate": "Bearer"})
        wait = limiter.take(str(user.id))
        if wait:
            raise ApiError(429, f"rate limit of {config.rate_per_minute:g} requests per minute exceeded; "
                                f"retry in {wait:.1f} s", {"Retry-After": str(max(1, round(wait + 0.5)))})
        return user

    Caller = Annotated[User, Depends(caller)]

    def checked(item: SubmissionIn, index: int | None = None) -> tuple[str, str]:
        where = "" if index is None else f"submissions.{index}."
        if item.problem not in judge.problem_ids():
            raise ApiError(404, f"{where}problem: no problem {item.problem!r} (GET {PREFIX}/problems lists them)")
        size = len(item.source.encode("utf-8", "surrogatepass"))
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
        """Whether the API and its database answer (no token needed)."""
        store.counts()
        return {"status": "ok"}

    @app.get(f"{PREFIX}/problems")
    def list_problems(user: Caller) -> dict:
        """Every problem: id, title, difficulty, tags, framework."""
        problems, _ = judge.problem_set.load()  # a broken problem is not served; the others are
        return {"problems": [{"id": p.id, "title": p.title, "difficulty": p.difficulty, "tags": list(p.tags),
                              "framework": p.framework} for p in problems]}

    @app.get(f"{PREFIX}/problems/{{problem_id}}")
    def get_problem(problem_id: str, user: Caller) -> dict:
        """A problem's public parts: statement, rules, signature, starter, limits, hints."""
        if problem_id not in judge.problem_ids():
            raise ApiError(404, f"no problem {problem_id!r}")
        try:
            p = judge.problem(problem_id)
        except ConfigError as exc:
            raise ApiError(500, f"problem {problem_id!r} cannot be loaded: {exc}") from None
        return {"id": p.id, "title": p.title, "difficulty": p.difficulty, "tags": list(p.tags),
                "framework": p.framework, "entry_point": p.entry_point, "signature": p.signature,
                "statement": p.statement, "rules": [{"id": r.id, "text": r.text} for r in p.rules],
                "starter": p.starter, "hints": list(p.hints),
                "limits": {"time_s": p.limits.time_s, "memory_mb": p.limits.memory_mb}}

    @app.post(f"{PREFIX}/submissions", status_code=202)
    def submit(item: SubmissionIn, user: Caller) -> dict:
        """Queue one submission; poll GET /api/v1/submissions/{id} for its report."""
        ids = store.create(user, [checked(item)])
        enqueue_all(ids)
        return {"id": ids[0]}

    @app.post(f"{PREFIX}/submissions/batch", status_code=202)
    def submit_batch(batch: BatchIn, user: Caller) -> dict:
        """Queue several submissions at once (all or none); their ids in order."""
        if len(batch.submissions) > config.max_batch:
            raise ApiError(413, f"submissions: {len(batch.submissions)} in one batch; the limit is {config.max_batch}")
        items = [checked(item, i) for i, item in enumerate(batch.submissions)]
        ids = store.create(user, items)
        enqueue_all(ids)
        return {"ids": ids}

    @app.get(f"{PREFIX}/submissions")
    def list_submissions(user: Caller, limit: int = Query(50, ge=1, le=500), offset: int = Query(0, ge=0),
                         status: str | None = Query(None, pattern=f"^({QUEUED}|{RUNNING}|{DONE})$")) -> dict:
        """Newest first: yours, or (instructors) every submission of your course; no reports."""
        found = store.visible_to(user, limit=limit, offset=offset, status=status)
        return {"submissions": [s.to_json(with_report=False) for s in found]}

    @app.get(f"{PREFIX}/submissions/{{submission_id}}")
    def get_submission(submission_id: str, user: Caller) -> dict:
        """Status and, once done, the report exactly as `judge run --json` gives it."""
        found = store.get(submission_id) if len(submission_id) <= 64 else None
        if found is not None:
            submission, owner = found
            if owner.id == user.id or (user.role == "instructor" and owner.course == user.course):
                return submission.to_json()
        # The same answer whether it does not exist or is someone else's: ids are not to be probed.
        raise ApiError(404, f"no submission {submission_id!r} of yours")

    app.add_middleware(BodyLimit, limit=config.max_request_bytes)
    return app
