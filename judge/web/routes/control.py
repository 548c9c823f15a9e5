"""`GET /api/status` and `POST /api/stop`: what `judge serve --status` and `--stop` ask a running server."""
from __future__ import annotations

import os

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from judge.web.routes.context import WebContext, error_response


def control_router(ctx: WebContext) -> APIRouter:
    router = APIRouter()

    @router.get("/api/status")
    def status() -> Response:
        return JSONResponse({"pid": os.getpid(), "root": str(ctx.judge.root),
                             "idle_s": round(ctx.idle_s(), 1) if ctx.idle_s is not None else None})

    @router.post("/api/stop")
    def stop() -> Response:
        if ctx.on_stop is None:
            return error_response(409, "this server cannot be stopped from here")
        ctx.on_stop()
        return JSONResponse({"stopping": True})

    return router
