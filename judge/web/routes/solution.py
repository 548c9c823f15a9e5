"""`GET /api/solution/ID`: the reference solution and editorial, as `judge solution` shows them: once
solved; before that only when the learner confirmed (`?confirmed=1`), and then recorded as seen before
solving."""
from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from judge.web.routes.context import WebContext, error_response


def solution_router(ctx: WebContext) -> APIRouter:
    router = APIRouter()
    judge = ctx.judge

    @router.get("/api/solution/{problem_id}")
    def solution(problem_id: str, confirmed: bool = False) -> Response:
        from judge.learner.tutor import NotSolvedYet

        problem = judge.problem(problem_id)
        earned = judge.tutor.solved(problem.id)
        try:
            shown, warning = judge.tutor.solution(problem.id, confirmed=confirmed)
        except NotSolvedYet:
            return error_response(409, f"{problem.id} is not solved yet: seeing the solution now is recorded in "
                                       "your progress")
        editorial = shown.editorial
        return JSONResponse({"title": shown.title, "reference": shown.reference, "earned": earned, "warning": warning,
                             "idea": editorial.idea if editorial else None, "cost": editorial.cost if editorial else None,
                             "mistakes": list(editorial.mistakes) if editorial else []})

    return router
