"""GET and POST /api/v1/problems/{id}/hints: a problem's hints, given one level at a time."""

from fastapi import APIRouter

from judge.service.responses import ApiError
from judge.service.routes.context import PREFIX, ApiContext


def hints_router(ctx: ApiContext) -> APIRouter:
    router = APIRouter()

    @router.get(f"{PREFIX}/problems/{{problem_id}}/hints")
    def get_hints(problem_id: str, user: ctx.Caller) -> dict:
        """The hints you have been given on a problem, in order, and how many levels there are."""
        p = ctx.known_problem(problem_id)
        reached = min(ctx.store.hints_given(user.id, p.id), len(p.hints))
        return {"problem": p.id, "levels": len(p.hints), "shown": [hint_json(p, n) for n in range(1, reached + 1)]}

    @router.post(f"{PREFIX}/problems/{{problem_id}}/hints")
    def next_hint(problem_id: str, user: ctx.Caller) -> dict:
        """The next hint (one level at a time, from a nudge to the key idea, as `judge hint` gives them);
        past the last, the last again."""
        p = ctx.known_problem(problem_id)
        if not p.hints:
            raise ApiError(404, f"{p.id} has no hints")
        return hint_json(p, ctx.store.next_hint(user.id, p.id, len(p.hints)))

    return router


def hint_json(problem, level: int) -> dict:
    return {"problem": problem.id, "level": level, "levels": len(problem.hints),
            "text": problem.hints[level - 1].strip(), "last": level == len(problem.hints)}
