"""`GET /api/hint/ID/LEVEL`: a problem's hint at a level, the level reached remembered as `judge hint` does."""
from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from judge.web.routes.context import WebContext


def hints_router(ctx: WebContext) -> APIRouter:
    router = APIRouter()

    @router.get("/api/hint/{problem_id}/{level}")
    def hint(problem_id: str, level: int) -> Response:
        h, warning = ctx.judge.tutor.hint(problem_id, level)
        return JSONResponse({"level": h.level, "levels": h.levels, "text": h.text, "last": h.last, "warning": warning})

    return router
