"""GET /api/v1/analytics: per problem, the mistakes an instructor's learners made and the tests most failed."""

from fastapi import APIRouter, Query

from judge.service.analytics import analytics, analytics_json
from judge.service.routes.context import PREFIX, ApiContext


def analytics_router(ctx: ApiContext) -> APIRouter:
    router = APIRouter()

    @router.get(f"{PREFIX}/analytics")
    def get_analytics(user: ctx.Instructor, problem: str | None = Query(None, min_length=1, max_length=64)) -> dict:
        """Instructors: per problem, how many of your learners made each named mistake, and the tests most failed."""
        return analytics_json(user.course, analytics(ctx.store, user.course, problem))

    return router
