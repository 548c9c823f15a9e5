"""`POST /api/answer/UNIT/QUESTION`: a unit's self-test answer, recorded and judged as `judge quiz` does.

The right answer and its explanation leave the server only once they may be
shown (the tutor's one retry): a page that merely hid them would give them to
anyone who reads the reply.
"""
from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from judge.web.routes.context import WebContext, error_response, read_body


def quiz_router(ctx: WebContext) -> APIRouter:
    router = APIRouter()
    judge = ctx.judge

    @router.post("/api/answer/{unit_id}/{question_id}")
    async def answer(request: Request, unit_id: str, question_id: str) -> Response:
        unit = judge.tutor.unit(unit_id)
        question = unit.question(question_id)
        body = await read_body(request, 1 << 16)
        if body is None:
            return error_response(413, "the answer is too long")
        try:
            text = json.loads(body)["answer"]
        except (ValueError, KeyError, TypeError):
            return error_response(400, 'expected a JSON object {"answer": "..."}')
        if not isinstance(text, str):
            return error_response(400, '"answer" must be a string')
        taken = judge.tutor.answer(unit, question.id, text)
        if taken.verdict.unreadable:
            return error_response(400, f"cannot read {text!r}: {taken.verdict.unreadable}")
        shown = {"expected": question.expected(), "explanation": question.explanation} if taken.reveal else {}
        return JSONResponse({"right": taken.right, "answer": taken.verdict.answer, "reveal": taken.reveal, **shown,
                             "warning": taken.warning, "standing": _describe_standing(taken.standing)})

    return router


def _describe_standing(standing) -> str:
    if standing.passed:
        return f"passed: unit {standing.unit.id} is complete" + (f"; next: unit {standing.unit.next}"
                                                                 if standing.unit.next else "")
    return (f"problems {standing.solved}/{standing.problems_needed()}, "
            f"questions {standing.right}/{standing.questions_needed()} right")
