"""GET /api/v1/similarity and /api/v1/similarity/compare: an instructor's pairs of alike submissions,
and what two submissions share (judge.service.similarity finds them)."""

from fastapi import APIRouter, Query

from judge.service.classnorm import UNUSUAL
from judge.service.responses import ApiError
from judge.service.routes.context import MAX_OFFSET, PREFIX, ApiContext
from judge.service.similarity import by_problem, course_found, pair_similarity, shared_regions, similar_found
from judge.service.storage import User


def similarity_router(ctx: ApiContext) -> APIRouter:
    router = APIRouter()

    def named(pairs: list, user: User) -> list[dict]:
        """Each pair as JSON with the two people's names (the roster's) beside their logins."""
        names = {u.name: u.display for u in ctx.store.course(user.course)[0]}
        return [{**p.to_json(), "a_name": names.get(p.a, p.a), "b_name": names.get(p.b, p.b)} for p in pairs]

    @router.get(f"{PREFIX}/similarity")
    def get_similarity(user: ctx.Instructor, problem: str | None = Query(None, min_length=1, max_length=64),
                       threshold: float = Query(0.8, ge=0.0, le=1.0),
                       unusual: float = Query(UNUSUAL, ge=0.0, le=100.0),
                       limit: int = Query(50, ge=1, le=500), offset: int = Query(0, ge=0, le=MAX_OFFSET)) -> dict:
        """Instructors: pairs of your course's learners whose submissions are at least `threshold` alike and
        at least `unusual` spreads above the class's typical pair on that problem (0: the threshold alone):
        to `problem`, or (without it) on any problem, with each pair's scores on every problem both submitted
        to. A page of `limit` pairs from `offset`; `total` counts them all, `common` those that reached the
        threshold but are typical of the class."""
        page = {"threshold": threshold, "unusual": unusual, "limit": limit, "offset": offset}
        if problem is None:
            _, submissions = ctx.store.course(user.course)
            found = course_found(by_problem(submissions), threshold, ctx.starters(), ctx.prints, unusual)
            return {"course": user.course, **page, "submissions": len(submissions), "total": len(found.pairs),
                    "common": found.common, "pairs": named(found.pairs[offset:offset + limit], user)}
        if problem not in ctx.judge.problem_ids():
            raise ApiError(404, f"no problem {problem!r}")
        _, submissions = ctx.store.course(user.course, problem)
        found = similar_found(submissions, threshold, ctx.starters().get(problem, ""), ctx.prints, unusual)
        return {"course": user.course, "problem": problem, **page, "submissions": len(submissions),
                "total": len(found.pairs), "common": found.common,
                "pairs": named(found.pairs[offset:offset + limit], user)}

    @router.get(f"{PREFIX}/similarity/compare")
    def compare(user: ctx.Instructor, a: str = Query(max_length=64), b: str = Query(max_length=64)) -> dict:
        """Instructors: two submissions of your course, how alike, and the lines each shares with the other."""
        (sa, oa), (sb, ob) = ctx.readable(a, user), ctx.readable(b, user)
        starter = ctx.starters().get(sa.problem, "") if sa.problem == sb.problem else ""
        ra, rb = shared_regions(sa.source, sb.source, starter)
        return {"similarity": round(pair_similarity(sa.source, sb.source, starter, ctx.prints), 3),
                "a": {"id": sa.id, "learner": oa.name, "name": oa.display, "problem": sa.problem, "shared_lines": ra},
                "b": {"id": sb.id, "learner": ob.name, "name": ob.display, "problem": sb.problem, "shared_lines": rb}}

    return router
