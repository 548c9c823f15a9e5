"""GET /api/v1/gradebook: an instructor's course graded by its course file, long or wide, as JSON or CSV."""

from fastapi import APIRouter, Query
from fastapi.responses import Response

from judge.service.gradebook import gradebook, gradebook_csv, gradebook_json, wide as wide_rows, wide_csv, wide_json
from judge.service.routes.context import PREFIX, ApiContext
from judge.service.storage import Store, User


def gradebook_router(ctx: ApiContext) -> APIRouter:
    router = APIRouter()

    @router.get(f"{PREFIX}/gradebook")
    def get_gradebook(user: ctx.Instructor, format: str = Query("json", pattern="^(json|csv)$"), wide: bool = False,
                      points_row: bool = False):
        """Instructors: per learner of your course and problem, the best verdict, attempts, first accepted and
        points; `wide`: a row per learner, a column of points per problem and the total (an LMS's CSV)."""
        if wide:
            graded, rows = wide_rows(ctx.store, user.course)
            if format == "csv":
                return Response(wide_csv(graded, rows, points_row=points_row), media_type="text/csv; charset=utf-8",
                                headers={"Content-Disposition":
                                         f'attachment; filename="{user.course}-gradebook-wide.csv"'})
            return wide_json(graded, rows)
        entries = gradebook(ctx.store, user.course)
        if format == "csv":
            return Response(gradebook_csv(entries), media_type="text/csv; charset=utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{user.course}-gradebook.csv"'})
        return gradebook_json(user.course, entries)

    return router


def gradebook_as_csv(store: Store, user: User, wide: bool) -> str:
    """The instructor's course's gradebook as the CSV file the review pages offer."""
    if wide:
        return wide_csv(*wide_rows(store, user.course))
    return gradebook_csv(gradebook(store, user.course))
