"""`POST /api/run/ID`: judge the editor's source and stream each test's result as a server-sent event as
soon as it is decided, then `done` with the overall verdict, then `refined` when the diagnosis went on."""
from __future__ import annotations

import asyncio
import json
import threading
from typing import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse

from judge.base.errors import ConfigError, SandboxError
from judge.base.escape import escape_tree
from judge.base.submission import MAX_SOURCE_BYTES, Submission
from judge.judging.budget import Budget, Refinement
from judge.web.payload import report_payload, test_payload
from judge.web.routes.context import WebContext, error_response, read_body


def run_router(ctx: WebContext) -> APIRouter:
    router = APIRouter()

    @router.post("/api/run/{problem_id}")
    async def run(request: Request, problem_id: str) -> Response:
        problem = ctx.judge.problem(problem_id)
        body = await read_body(request, 2 * MAX_SOURCE_BYTES)  # JSON-escaped source
        if body is None:
            return error_response(413, f"the source is larger than the limit of {MAX_SOURCE_BYTES} bytes")
        try:
            request_data = json.loads(body)
            source, examples_only = request_data["source"], request_data.get("examples_only", False)
        except (ValueError, KeyError, TypeError):
            return error_response(400, 'expected a JSON object {"source": "...", "examples_only": true|false}')
        if not isinstance(source, str) or not isinstance(examples_only, bool):
            return error_response(400, '"source" must be a string and "examples_only" true or false')
        if len(source.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
            return error_response(413, f"the source is larger than the limit of {MAX_SOURCE_BYTES} bytes")
        return StreamingResponse(_judge_events(ctx, problem, source, examples_only),
                                 media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    return router


async def _judge_events(ctx: WebContext, problem, source: str, examples_only: bool) -> AsyncIterator[str]:
    """Judge in a worker thread; yield each test's result as an event as soon as it is decided, then `done`
    (the verdict), then, when the diagnosis went on after it, `refined` (the failures again, with what was
    found since, or `{"nothing": true}`)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()

    def put(event: str, data: dict) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, (event, data))

    def work() -> None:
        ended = False
        try:
            refinement = Refinement()
            with ctx.judging:
                # The verdict first: a wrong answer's diagnosis that takes longer follows as `refined`
                # (judge.judging.budget), waited for outside the judging lock.
                # The page waits for the refinement as long as the search takes (the terminal, 8 run times).
                report = ctx.judge.submit(problem.id, Submission.from_text(source, "editor.py", origin="web editor"),
                                          examples_only=examples_only,
                                          on_result=lambda t: put("test", test_payload(t)),
                                          budget=Budget(refinement.put, last=None))
            put("done", {**report_payload(report, examples_only), "refining": report.refining})
            ended = True
            if report.refining:
                refined = refinement.wait()
                put("refined", report_payload(refined, examples_only) if refined is not None else {"nothing": True})
        except (ConfigError, SandboxError) as exc:
            put("error", {"message": str(exc)})
            ended = True
        except Exception as exc:  # noqa: BLE001 - the page must end with a message; the server keeps serving
            put("error", {"message": f"judge error: {type(exc).__name__}: {exc}"})
            ended = True
        finally:
            if not ended:  # whatever stopped this thread (even a BaseException), the page is told
                put("error", {"message": "judge error: the judging thread ended without a verdict"})

    threading.Thread(target=work, name=f"judge-{problem.id}", daemon=True).start()
    while True:
        ready = [await queue.get()]
        while not queue.empty():  # results decided meanwhile go out in one write, not one each
            ready.append(queue.get_nowait())
        # What the submission printed, raised or returned, escaped as every face escapes it (judge.base.escape).
        yield "".join(f"event: {event}\ndata: {json.dumps(escape_tree(data))}\n\n" for event, data in ready)
        if any(event in ("refined", "error") or (event == "done" and not data.get("refining")) for event, data in ready):
            return
