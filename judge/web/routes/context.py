"""What the page's routes share: the judge, the guard, the templates, the judging lock, and small helpers.

Judging goes through the one `Judge` the server holds (its warm fork server),
one submission at a time under `judging` (the lock the warm CLI takes too),
and is recorded in the same progress database as the CLI.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Callable

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from jinja2 import Environment

from judge.base.escape import escape_controls
from judge.judging.session import Judge
from judge.web.guard import Guard


@dataclass
class WebContext:
    """The server's judge and guard, its page templates, and the lock so submissions run one at a time;
    `on_stop` ends the server (`judge serve --stop`), `idle_s` says how long it has been idle."""

    judge: Judge
    guard: Guard
    templates: Environment
    judging: threading.Lock = field(default_factory=threading.Lock)
    on_stop: Callable[[], None] | None = None
    idle_s: Callable[[], float] | None = None

    def page(self, name: str, request: Request, **context) -> Response:
        """The page `name` rendered, or on the first visit by the printed URL a redirect that keeps the token
        in a cookie and drops it from the address bar."""
        if "token" in request.query_params:
            response = RedirectResponse(request.url.remove_query_params("token").path, status_code=303)
            response.set_cookie(self.guard.cookie_name, self.guard.token, httponly=True, samesite="strict")
            return response
        return HTMLResponse(self.templates.get_template(name).render(token=self.guard.token, **context))


def error_response(status: int, message: str) -> JSONResponse:
    """`{"error": message}` with `status`."""
    # a message may name a file or quote a learner's text: a lone surrogate would fail the response
    return JSONResponse({"error": escape_controls(message)}, status_code=status)


async def read_body(request: Request, limit: int) -> bytes | None:
    """The request's body, or None once it passes `limit` bytes (read no further: no memory bomb)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def script_json(value: object) -> str:
    """`value` as JSON safe inside a <script> element: no `<` at all, so neither `</script>` nor `<!--`."""
    return json.dumps(value).replace("<", "\\u003c")
