"""The routes of the local web page: pages (Jinja2) and a small JSON / event-stream API.

Pages: `/` (problems, units), `/problem/ID`, `/unit/ID`. API: `POST /api/run/ID`
judges the editor's source and streams each test's result as a server-sent
event as soon as it is decided, then a `done` event with the overall verdict;
`/api/hint/ID/LEVEL`, `/api/history/ID`, `/api/attempt/N/source`, `/api/diff/ID/OLD/NEW`,
`/api/solution/ID` (once solved, or `?confirmed=1`), `POST /api/answer/UNIT/QUESTION`;
`/api/status` and `POST /api/stop` for `judge serve --status/--stop`. Every request
passes `guard.Guard` first.

Problems are listed in course order: the units' problems as each unit lists them
(then its extras), then the problems no unit lists, by id; the problem page links
to the next one in that order.

Judging goes through the one `Judge` the server holds (its warm fork server),
one submission at a time, and is recorded in the same progress database as
the CLI.
"""
from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import AsyncIterator, Callable

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from judge.base.errors import ConfigError, ConfigErrors, SandboxError
from judge.base.escape import escape_controls, escape_tree
from judge.render import markdown_html
from judge.render.statement import domain_markdown
from judge.judging.budget import Budget, Refinement
from judge.judging.session import Judge
from judge.base.submission import MAX_SOURCE_BYTES, Submission
from judge.web.guard import Guard, GuardMiddleware
from judge.web.payload import report_payload, test_payload

STATIC = Path(__file__).with_name("static")


@dataclass
class WebState:
    """What the routes share: the judge, the guard, and a lock so submissions run one at a time."""

    judge: Judge
    guard: Guard
    judging: threading.Lock = field(default_factory=threading.Lock)
    on_activity: Callable[[], None] | None = None  # called on every request (the idle timeout)


def create_app(judge: Judge, guard: Guard, *, judging: threading.Lock | None = None,
               on_activity: Callable[[], None] | None = None, on_stop: Callable[[], None] | None = None,
               idle_s: Callable[[], float] | None = None) -> FastAPI:
    """The app; `judging` is the lock every submission of this judge takes (shared with the warm CLI);
    `on_stop` ends the server (`judge serve --stop`), `idle_s` says how long it has been idle."""
    state = WebState(judge, guard, judging or threading.Lock(), on_activity)
    templates = Environment(loader=PackageLoader("judge.web", "templates"), autoescape=select_autoescape(),
                            finalize=_visible)
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)

    @app.middleware("http")
    async def activity(request: Request, call_next):
        # Inside the guard: a refused request keeps no server alive; nor does `judge serve --status`.
        if state.on_activity is not None and request.url.path != "/api/status":
            state.on_activity()
        return await call_next(request)

    app.add_middleware(GuardMiddleware, guard=guard)  # added last, so it runs first
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def page(name: str, request: Request, **context) -> Response:
        if "token" in request.query_params:
            # First visit by the printed URL: keep the token in a cookie and drop it from the address bar.
            response = RedirectResponse(request.url.remove_query_params("token").path, status_code=303)
            response.set_cookie(guard.cookie_name, guard.token, httponly=True, samesite="strict")
            return response
        return HTMLResponse(templates.get_template(name).render(token=guard.token, **context))

    @app.exception_handler(ConfigError)
    async def config_error(request: Request, exc: ConfigError) -> Response:
        # The library's errors carry no kind; the one a URL causes by itself is an unknown id.
        return _error(404 if "unknown" in str(exc) else 400, str(exc))

    @app.exception_handler(ConfigErrors)
    async def config_errors(request: Request, exc: ConfigErrors) -> Response:
        return _error(400, "; ".join(exc.lines()))

    # ------------------------------------------------------------ pages
    @app.get("/", response_class=HTMLResponse)
    def index(request: Request) -> Response:
        listing = judge.tutor.listing()  # in course order
        units = _unit_standings(judge)
        entries = listing.entries
        problems = [e.problem for e in entries]
        # One broken problem file is named, not a failed page: the others are listed.
        warning = "; ".join([*([listing.warning] if listing.warning else []),
                             *(f"{b.id} is not listed: {b.error}" for b in listing.broken)]) or None
        unit_of = {}
        for u in units:
            for pid in u["all_problems"]:
                unit_of.setdefault(pid, u["id"])
        rows = [{"problem": e.problem, "status": e.status, "unit": unit_of.get(e.problem.id, "")} for e in entries]
        return page("index.html", request, rows=rows, units=units, warning=warning,
                    difficulties=sorted({p.difficulty for p in problems}, key=_difficulty_order),
                    tags=sorted({t for p in problems for t in p.tags}))

    @app.get("/problem/{problem_id}", response_class=HTMLResponse)
    def problem_page(request: Request, problem_id: str) -> Response:
        problem = judge.problem(problem_id)
        following = _following(judge, problem.id)
        # The editor opens the learner's last attempt (from any face) unless its draft is newer.
        attempts, _ = judge.tutor.attempts(problem.id, limit=1)
        last = ({"source": attempts[0].source, "at": attempts[0].at, "when": attempts[0].when()}
                if attempts and attempts[0].source is not None else None)
        # Rule ids are the authors' handles (hidden tests, traps): learners read the rules' text only.
        return page("problem.html", request, problem=problem, status=judge.tutor.status(problem.id).value,
                    hints=judge.tutor.hints_shown(problem.id), following=following,
                    statement=markdown_html(_with_domain(problem)), rules=[markdown_html(r.text) for r in problem.rules],
                    examples=_examples(judge, problem), starter=_script_json(problem.starter),
                    last_attempt=_script_json(last))

    @app.get("/unit/{unit_id}", response_class=HTMLResponse)
    def unit_page(request: Request, unit_id: str) -> Response:
        from judge.learner.units import LETTERS

        unit = judge.tutor.unit(unit_id)
        standing, warning = judge.tutor.standing(unit)
        titles = {pid: judge.problem(pid).title for pid in (*unit.problems, *unit.extras)}
        return page("unit.html", request, unit=unit, standing=standing, warning=warning, titles=titles,
                    letters=LETTERS, summary=markdown_html(unit.summary),
                    prompts={q.id: markdown_html(q.prompt) for q in unit.questions})

    # ------------------------------------------------------------ API
    @app.post("/api/run/{problem_id}")
    async def run(request: Request, problem_id: str) -> Response:
        problem = judge.problem(problem_id)
        body = await _body(request, 2 * MAX_SOURCE_BYTES)  # JSON-escaped source
        if body is None:
            return _error(413, f"the source is larger than the limit of {MAX_SOURCE_BYTES} bytes")
        try:
            request_data = json.loads(body)
            source, examples_only = request_data["source"], request_data.get("examples_only", False)
        except (ValueError, KeyError, TypeError):
            return _error(400, 'expected a JSON object {"source": "...", "examples_only": true|false}')
        if not isinstance(source, str) or not isinstance(examples_only, bool):
            return _error(400, '"source" must be a string and "examples_only" true or false')
        if len(source.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
            return _error(413, f"the source is larger than the limit of {MAX_SOURCE_BYTES} bytes")
        return StreamingResponse(_judge_events(state, problem, source, examples_only),
                                 media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    @app.get("/api/hint/{problem_id}/{level}")
    def hint(problem_id: str, level: int) -> Response:
        # the level reached is remembered, as `judge hint` does
        h, warning = judge.tutor.hint(problem_id, level)
        return JSONResponse({"level": h.level, "levels": h.levels, "text": h.text, "last": h.last, "warning": warning})

    @app.get("/api/history/{problem_id}")
    def history(problem_id: str) -> Response:
        judge.problem(problem_id)  # an unknown id is a 404, not an empty history
        attempts, warning = judge.tutor.attempts(problem_id, limit=50)
        if warning:
            return _error(503, warning)
        return JSONResponse(escape_tree([a.to_json() for a in attempts]))  # file names as every face shows them

    @app.get("/api/diff/{problem_id}/{old}/{new}")
    def diff(problem_id: str, old: int, new: int) -> Response:
        judge.problem(problem_id)
        try:
            return JSONResponse({"lines": judge.tutor.diff(old, new, problem_id)})
        except ConfigError as exc:  # no such attempt of this problem, or one kept without its source
            return _error(404, str(exc))

    @app.get("/api/solution/{problem_id}")
    def solution(problem_id: str, confirmed: bool = False) -> Response:
        # As `judge solution`: shown once solved; before that only when the learner confirmed,
        # and then recorded as seen before solving.
        from judge.learner.tutor import NotSolvedYet

        problem = judge.problem(problem_id)
        earned = judge.tutor.solved(problem.id)
        try:
            shown, warning = judge.tutor.solution(problem.id, confirmed=confirmed)
        except NotSolvedYet:
            return _error(409, f"{problem.id} is not solved yet: seeing the solution now is recorded in your progress")
        editorial = shown.editorial
        return JSONResponse({"title": shown.title, "reference": shown.reference, "earned": earned, "warning": warning,
                             "idea": editorial.idea if editorial else None, "cost": editorial.cost if editorial else None,
                             "mistakes": list(editorial.mistakes) if editorial else []})

    @app.get("/api/status")
    def status() -> Response:
        import os

        return JSONResponse({"pid": os.getpid(), "root": str(judge.root),
                             "idle_s": round(idle_s(), 1) if idle_s is not None else None})

    @app.post("/api/stop")
    def stop() -> Response:
        if on_stop is None:
            return _error(409, "this server cannot be stopped from here")
        on_stop()
        return JSONResponse({"stopping": True})

    @app.get("/api/attempt/{attempt_id}/source")
    def source(attempt_id: int) -> Response:
        try:
            attempt = judge.tutor.attempt(attempt_id)
        except ConfigError as exc:  # the progress database is unusable
            return _error(503, str(exc))
        if attempt is None or attempt.source is None:
            return _error(404, "this attempt's source was not kept")
        return JSONResponse({"source": attempt.source})

    @app.post("/api/answer/{unit_id}/{question_id}")
    async def answer(request: Request, unit_id: str, question_id: str) -> Response:
        unit = judge.tutor.unit(unit_id)
        question = unit.question(question_id)
        body = await _body(request, 1 << 16)
        if body is None:
            return _error(413, "the answer is too long")
        try:
            text = json.loads(body)["answer"]
        except (ValueError, KeyError, TypeError):
            return _error(400, 'expected a JSON object {"answer": "..."}')
        if not isinstance(text, str):
            return _error(400, '"answer" must be a string')
        taken = judge.tutor.answer(unit, question.id, text)
        if taken.verdict.unreadable:
            return _error(400, f"cannot read {text!r}: {taken.verdict.unreadable}")
        # The right answer and its explanation leave the server only once they may be shown (the
        # tutor's one retry): a page that merely hid them would give them to anyone who reads the reply.
        shown = {"expected": question.expected(), "explanation": question.explanation} if taken.reveal else {}
        return JSONResponse({"right": taken.right, "answer": taken.verdict.answer, "reveal": taken.reveal, **shown,
                             "warning": taken.warning, "standing": _standing_text(taken.standing)})

    return app


async def _judge_events(state: WebState, problem, source: str, examples_only: bool) -> AsyncIterator[str]:
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
            with state.judging:
                # The verdict first: a wrong answer's diagnosis that takes longer follows as `refined`
                # (judge.judging.budget), waited for outside the judging lock.
                # The page waits for the refinement as long as the search takes (the terminal, 8 run times).
                report = state.judge.submit(problem.id, Submission.from_text(source, "editor.py", origin="web editor"),
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


async def _body(request: Request, limit: int) -> bytes | None:
    """The request's body, or None once it passes `limit` bytes (read no further: no memory bomb)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _script_json(value: object) -> str:
    """`value` as JSON safe inside a <script> element: no `<` at all, so neither `</script>` nor `<!--`."""
    return json.dumps(value).replace("<", "\\u003c")


def _error(status: int, message: str) -> JSONResponse:
    # a message may name a file or quote a learner's text: a lone surrogate would fail the response
    return JSONResponse({"error": escape_controls(message)}, status_code=status)


def _visible(value: object) -> object:
    """Every value a page template shows, made visible as in any face (judge.base.escape): autoescaping
    stops markup, not bidirectional or control characters. Markup (rendered Markdown) is the page's own."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return escape_controls(value, keep="\n\t")
    return value


def _difficulty_order(difficulty: str) -> tuple[int, str]:
    order = {"easy": 0, "medium": 1, "hard": 2}
    return order.get(difficulty, 3), difficulty


def _with_domain(problem) -> str:
    """The statement's prose, then its input domain (judge.render.statement), as `judge show` has them."""
    domain = domain_markdown(problem)
    return f"{problem.statement.rstrip()}\n\n{domain}" if domain else problem.statement


def _examples(judge: Judge, problem) -> list[dict]:
    """The public examples as `judge show` prints them: inputs, the reference's output, explanation."""
    from judge.model.cases import MAIN
    from judge.render import show_input, show_value

    examples = []
    for example in judge.examples(problem):
        case, expected = example.case, example.expected
        inputs = [(name, show_input(spec, case.args[case.arg_index(name)], "")) for name, spec in case.test.inputs.items()]
        main = expected[MAIN]
        output = f"raises {main.error.type}" if main.error is not None else show_value(main.value, "")
        examples.append({"name": case.name, "inputs": inputs, "output": output,
                         "explanation": (case.test.explanation or "").strip()})
    return examples


def _following(judge: Judge, problem_id: str):
    """The problem after `problem_id` in course order (None after the last, or for a broken one)."""
    from judge.learner.units import course_order, load_units, units_dir

    root = judge.root
    try:
        units = load_units(root) if units_dir(root).is_dir() else []
    except ConfigError:  # a broken unit file: `judge units` names it; the page still links by id
        units = []
    order = course_order(judge.problem_set.ids(), units)
    for later in order[order.index(problem_id) + 1:] if problem_id in order else []:
        try:
            return judge.problem(later)
        except ConfigError:  # a broken problem file is skipped: its own page names the error
            continue
    return None


def _unit_standings(judge: Judge) -> list[dict]:
    standings = []
    for unit in judge.tutor.units():
        standing, _ = judge.tutor.standing(unit)
        done = standing.solved + standing.right
        needed = standing.problems_needed() + standing.questions_needed()
        standings.append({"id": unit.id, "title": unit.title, "passed": standing.passed, "solved": standing.solved,
                          "problems": len(unit.problems), "right": standing.right, "questions": len(unit.questions),
                          "percent": round(100 * min(done, needed) / needed) if needed else 100,
                          "all_problems": [*unit.problems, *unit.extras]})
    return standings


def _standing_text(standing) -> str:
    if standing.passed:
        return f"passed: unit {standing.unit.id} is complete" + (f"; next: unit {standing.unit.next}"
                                                                 if standing.unit.next else "")
    return (f"problems {standing.solved}/{standing.problems_needed()}, "
            f"questions {standing.right}/{standing.questions_needed()} right")

