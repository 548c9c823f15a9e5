"""How the API answers: JSON in ASCII, every error as `{"error": {"status": N, "message": "..."}}`.

`ApiError` is what a route raises to answer an error; `add_error_handlers` turns every other failure
into the same shape: FastAPI's own (404, 405, a body that does not validate as 422 naming the field),
a database that does not answer (503 with Retry-After), any other database error and anything
unexpected (500, logged, never a traceback to the client).
"""

import json
import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from judge.base.escape import escape_tree
from judge.service.faults import DATABASE_DOWN, describe

log = logging.getLogger("judge.service.api")


class AsciiJSON(JSONResponse):
    """JSON with every non-ASCII character escaped, and every text first shown as every face shows it
    (judge.base.escape): a lone surrogate echoed in a message reads `\\ud800`, never a JSON escape of one that
    a strict reader refuses, and a report's bidirectional or control characters stay visible."""

    def render(self, content) -> bytes:
        return json.dumps(escape_tree(content), ensure_ascii=True, separators=(",", ":")).encode("ascii")


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> AsciiJSON:
    return AsciiJSON({"error": {"status": status, "message": message}}, status_code=status, headers=headers)


class ApiError(Exception):
    """An answer other than success: its HTTP status, the message the client reads, and any headers."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers


async def send_error(send, status: int, message: str) -> None:
    """Answer an error from ASGI middleware, before any route runs."""
    response = error_response(status, message)
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})


def add_error_handlers(app: FastAPI, db_retry_after_s: int) -> None:
    """Answer every failure of `app` as a JSON error (see the module)."""

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
                                  {"Retry-After": str(db_retry_after_s)})
        log.error("database error", exc_info=exc)
        return error_response(500, "internal error (the database refused the request); nothing was stored")

    @app.exception_handler(Exception)
    async def unexpected(_request: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected error", exc_info=exc)
        return error_response(500, f"internal error ({type(exc).__name__})")
