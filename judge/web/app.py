"""The local web page's app: its routers (judge.web.routes), templates, static files and guard.

Pages: `/` (problems, units), `/problem/ID`, `/unit/ID`. API: `POST /api/run/ID`
(the results streamed as server-sent events), `/api/hint/ID/LEVEL`,
`/api/history/ID`, `/api/attempt/N/source`, `/api/diff/ID/OLD/NEW`,
`/api/solution/ID`, `POST /api/answer/UNIT/QUESTION`, and `/api/status`,
`POST /api/stop` for `judge serve --status/--stop`. Every request passes
`guard.Guard` first.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from fastapi import FastAPI, Request
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from judge.base.errors import ConfigError, ConfigErrors
from judge.base.escape import escape_controls
from judge.judging.session import Judge
from judge.web.guard import Guard, GuardMiddleware
from judge.web.routes.context import WebContext, error_response
from judge.web.routes.control import control_router
from judge.web.routes.hints import hints_router
from judge.web.routes.history import history_router
from judge.web.routes.pages import pages_router
from judge.web.routes.quiz import quiz_router
from judge.web.routes.run import run_router
from judge.web.routes.solution import solution_router

STATIC = Path(__file__).with_name("static")
ROUTERS = (pages_router, run_router, hints_router, history_router, solution_router, control_router, quiz_router)


def create_app(judge: Judge, guard: Guard, *, judging: threading.Lock | None = None,
               on_activity: Callable[[], None] | None = None, on_stop: Callable[[], None] | None = None,
               idle_s: Callable[[], float] | None = None) -> FastAPI:
    """The app; `judging` is the lock every submission of this judge takes (shared with the warm CLI),
    `on_activity` is called on every request (the idle timeout), `on_stop` ends the server (`judge serve
    --stop`), `idle_s` says how long it has been idle."""
    templates = Environment(loader=PackageLoader("judge.web", "templates"), autoescape=select_autoescape(),
                            finalize=_visible)
    ctx = WebContext(judge, guard, templates, judging or threading.Lock(), on_stop, idle_s)
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)

    @app.middleware("http")
    async def activity(request: Request, call_next):
        # Inside the guard: a refused request keeps no server alive; nor does `judge serve --status`.
        if on_activity is not None and request.url.path != "/api/status":
            on_activity()
        return await call_next(request)

    app.add_middleware(GuardMiddleware, guard=guard)  # added last, so it runs first
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(ConfigError)
    async def config_error(request: Request, exc: ConfigError) -> Response:
        # The library's errors carry no kind; the one a URL causes by itself is an unknown id.
        return error_response(404 if "unknown" in str(exc) else 400, str(exc))

    @app.exception_handler(ConfigErrors)
    async def config_errors(request: Request, exc: ConfigErrors) -> Response:
        return error_response(400, "; ".join(exc.lines()))

    for build_router in ROUTERS:
        app.include_router(build_router(ctx))
    return app


def _visible(value: object) -> object:
    """Every value a page template shows, made visible as in any face (judge.base.escape): autoescaping
    stops markup, not bidirectional or control characters. Markup (rendered Markdown) is the page's own."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return escape_controls(value, keep="\n\t")
    return value
