"""/api/v1/submissions: queue one or a batch, list them, and read one with its report.

A submission is stored queued (judge.service.storage.lifecycle) before its id is handed to the queue;
a lost message leaves it queued, for the reaper to enqueue again. A learner reads as much of a report
as the course file's `feedback` for the problem shows now (judge.service.feedback).
"""

import time

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from judge.service.course import Course, parse_course
from judge.service.feedback import for_learner
from judge.service.responses import ApiError
from judge.service.routes.context import MAX_OFFSET, PREFIX, ApiContext
from judge.service.storage import DONE, QUEUED, RUNNING, QuotaExceeded, User


class SubmissionIn(BaseModel):
    problem: str = Field(min_length=1, max_length=64, description="a problem id, as in GET /api/v1/problems")
    source: str = Field(description="the Python source defining the problem's entry point")


class BatchIn(BaseModel):
    submissions: list[SubmissionIn] = Field(min_length=1)


def submissions_router(ctx: ApiContext) -> APIRouter:
    router = APIRouter()
    parsed_courses: dict[tuple[str, str, str], Course] = {}     # a learner's every read applies its course file

    def create(user: User, items: list[tuple[str, str]]) -> list[str]:
        try:
            return ctx.store.create(user, items, ctx.quota)
        except QuotaExceeded as exc:
            raise ApiError(429, str(exc), {"Retry-After": str(max(1, min(300, round(exc.wait_s))))}) from None

    def check_item(item: SubmissionIn, index: int | None = None) -> tuple[str, str]:
        where = "" if index is None else f"submissions.{index}."
        if item.problem not in ctx.judge.problem_ids():
            raise ApiError(404, f"{where}problem: no problem {item.problem!r} (GET {PREFIX}/problems lists them)")
        try:
            item.source.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ApiError(422, f"{where}source: not valid Unicode (a lone surrogate at character {exc.start})") \
                from None
        size = len(item.source.encode("utf-8"))
        if size > ctx.config.max_source_bytes:
            raise ApiError(413, f"{where}source: {size} bytes; the limit is {ctx.config.max_source_bytes}")
        if "\x00" in item.source:
            raise ApiError(422, f"{where}source: contains a NUL character")
        return item.problem, item.source

    def enqueue_all(ids: list[str]) -> None:
        for submission_id in ids:  # a failure leaves the row queued; the reaper enqueues it later
            ctx.queue.enqueue(submission_id)

    def course_file(course: str) -> Course | None:
        """The course's file as stored (None: it has none, and every report is whole), parsed once per text."""
        stored = ctx.store.course_definition(course)
        if stored is None:
            return None
        key = (course, *stored)
        if key not in parsed_courses:
            if len(parsed_courses) > 64:
                parsed_courses.clear()
            parsed_courses[key] = parse_course(stored[0], stored[1])
        return parsed_courses[key]

    @router.post(f"{PREFIX}/submissions", status_code=202)
    def submit(item: SubmissionIn, user: ctx.Caller) -> dict:
        """Queue one submission; poll GET /api/v1/submissions/{id} for its report."""
        ids = create(user, [check_item(item)])
        enqueue_all(ids)
        return {"id": ids[0]}

    @router.post(f"{PREFIX}/submissions/batch", status_code=202)
    def submit_batch(batch: BatchIn, user: ctx.Caller) -> dict:
        """Queue several submissions at once (all or none); their ids in order."""
        if len(batch.submissions) > ctx.config.max_batch:
            raise ApiError(413, f"submissions: {len(batch.submissions)} in one batch; "
                                f"the limit is {ctx.config.max_batch}")
        items = [check_item(item, i) for i, item in enumerate(batch.submissions)]
        ids = create(user, items)
        enqueue_all(ids)
        return {"ids": ids}

    @router.get(f"{PREFIX}/submissions")
    def list_submissions(user: ctx.Caller, limit: int = Query(50, ge=1, le=500),
                         offset: int = Query(0, ge=0, le=MAX_OFFSET),
                         status: str | None = Query(None, pattern=f"^({QUEUED}|{RUNNING}|{DONE})$")) -> dict:
        """Newest first: yours, or (instructors) every submission of your course; no reports."""
        found = ctx.store.visible_to(user, limit=limit, offset=offset, status=status)
        return {"submissions": [s.to_json(with_report=False) for s in found]}

    @router.get(f"{PREFIX}/submissions/{{submission_id}}")
    def get_submission(submission_id: str, user: ctx.Caller) -> dict:
        """Status, the source and, once done, the report as `judge run --json` gives it; to a learner, as much
        of it as the course file's `feedback` for the problem shows now (judge.service.feedback)."""
        submission, _ = ctx.readable(submission_id, user)
        data = submission.to_json(with_source=True)
        if user.role != "instructor":
            course = course_file(user.course)
            assignment = course.assignment(submission.problem, user.name) if course is not None else None
            data["report"] = for_learner(submission.report, assignment, time.time())
        return data

    return router
