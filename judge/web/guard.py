"""Who may talk to `judge serve`: requests with the server's token, to its own address.

Any web site the learner visits can make the browser send requests to
127.0.0.1, so the server trusts nothing about a request but these:
- the Host header names this server (127.0.0.1:PORT or localhost:PORT): a
  DNS-rebinding page reaches us under its own host name and is refused;
- an Origin header, when present, is this server's own origin: another site's
  fetch or form post is refused before anything runs;
- the random per-server token (as Jupyter does) arrives as the `token` query
  parameter (the URL printed at start), the X-Judge-Token header (the page's
  own requests) or the cookie set on the first visit (SameSite=Strict, so no
  other site's request carries it).
"""
from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs

TOKEN_HEADER = "x-judge-token"


def new_token() -> str:
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Guard:
    """The server's token and address; `refusal` says why a request is refused, or None."""

    token: str
    port: int

    @property
    def cookie_name(self) -> str:
        return f"judge_token_{self.port}"  # one cookie per server: two servers on two ports coexist

    @property
    def hosts(self) -> frozenset[str]:
        return frozenset({f"127.0.0.1:{self.port}", f"localhost:{self.port}"})

    @property
    def origins(self) -> frozenset[str]:
        return frozenset(f"http://{host}" for host in self.hosts)

    def refusal(self, headers: dict[str, str], query: str) -> str | None:
        if headers.get("host", "") not in self.hosts:
            return "this server answers only at its own address (127.0.0.1 or localhost with its port)"
        origin = headers.get("origin")
        if origin is not None and origin not in self.origins:
            return "requests from another site are refused"
        if not self.token_in(headers, query):
            return "missing or wrong token: open the URL that `judge serve` printed"
        return None

    def token_in(self, headers: dict[str, str], query: str) -> bool:
        candidates = parse_qs(query).get("token", [])
        if TOKEN_HEADER in headers:
            candidates.append(headers[TOKEN_HEADER])
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except CookieError:  # a malformed Cookie header carries no token
            cookie = SimpleCookie()
        if self.cookie_name in cookie:
            candidates.append(cookie[self.cookie_name].value)
        return any(hmac.compare_digest(c.encode(), self.token.encode()) for c in candidates)


class GuardMiddleware:
    """ASGI middleware refusing (403, plain text) every HTTP request the guard does not allow."""

    def __init__(self, app, guard: Guard):
        self.app = app
        self.guard = guard

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        reason = self.guard.refusal(headers, scope.get("query_string", b"").decode("latin-1"))
        if reason is None:
            await self.app(scope, receive, send)
            return
        body = f"refused: {reason}\n".encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
