"""GET /api/v1/health: whether requests would be served, with no token needed."""

from fastapi import APIRouter

from judge.base.errors import ConfigError
from judge.service.responses import ApiError
from judge.service.routes.context import PREFIX, ApiContext


def health_router(ctx: ApiContext) -> APIRouter:
    router = APIRouter()

    @router.get(f"{PREFIX}/health")
    def health() -> dict:
        """What requests would meet (no token needed): the database answers (else 503), the problem set
        loads (else 503, saying why), how many problems are served and which are broken."""
        ctx.store.counts()
        try:
            problems, broken = ctx.judge.problem_set.load()
        except ConfigError as exc:
            raise ApiError(503, f"the problem set cannot be used: {exc}", {"Retry-After": "60"}) from None
        return {"status": "ok", "database": "ok", "problems": len(problems),
                "broken": [{"id": b.id, "error": b.error} for b in broken]}

    return router
