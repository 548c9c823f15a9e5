"""The ASGI guards in front of every route: a bound on a request's body, read before any of it is parsed, and
the Host names the service answers to. Both answer as every error is answered (judge.service.responses)."""

from judge.service.responses import send_error


class BodyLimit:
    """Refuses request bodies over `limit` bytes with 413, before any of it is parsed."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await send_error(send, 413, f"the request body is over {self.limit} bytes")
        body, more = b"", True
        while more:  # read at most limit + 1 bytes of a body without a (truthful) length
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                return await send_error(send, 413, f"the request body is over {self.limit} bytes")
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
            return await send_error(send, 400, f"Host {host!r} is not served here "
                                               "(JUDGE_SERVICE_ALLOWED_HOSTS lists the names that are)")
        return await self.app(scope, receive, send)
