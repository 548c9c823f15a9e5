"""The learner's attempts: `GET /api/history/ID` (newest first), `/api/attempt/N/source` (its code) and
`/api/diff/ID/OLD/NEW` (two attempts' code compared)."""
from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from judge.base.errors import ConfigError
from judge.base.escape import escape_tree
from judge.web.routes.context import WebContext, error_response


def history_router(ctx: WebContext) -> APIRouter:
    router = APIRouter()
    judge = ctx.judge

    @router.get("/api/history/{problem_id}")
    def history(problem_id: str) -> Response:
        judge.problem(problem_id)  # an unknown id is a 404, not an empty history
        attempts, warning = judge.tutor.attempts(problem_id, limit=50)
        if warning:
            return error_response(503, warning)
        return JSONResponse(escape_tree([a.to_json() for a in attempts]))  # file names as every face shows them

    @router.get("/api/diff/{problem_id}/{old}/{new}")
    def diff(problem_id: str, old: int, new: int) -> Response:
        judge.problem(problem_id)
        try:
            return JSONResponse({"lines": judge.tutor.diff(old, new, problem_id)})
        except ConfigError as exc:  # no such attempt of this problem, or one kept without its source
            return error_response(404, str(exc))

    @router.get("/api/attempt/{attempt_id}/source")
    def source(attempt_id: int) -> Response:
        try:
            attempt = judge.tutor.attempt(attempt_id)
        except ConfigError as exc:  # the progress database is unusable
            return error_response(503, str(exc))
        if attempt is None or attempt.source is None:
            return error_response(404, "this attempt's source was not kept")
        return JSONResponse({"source": attempt.source})

    return router
