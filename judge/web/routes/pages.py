"""The HTML pages: `/` (problems in course order, units), `/problem/ID` and `/unit/ID`.

Problems are listed in course order: the units' problems as each unit lists
them (then its extras), then the problems no unit lists, by id; the problem
page links to the next one in that order.
"""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from judge.base.errors import ConfigError
from judge.judging.session import Judge
from judge.render import markdown_html
from judge.render.statement import domain_markdown
from judge.web.routes.context import WebContext, script_json


def pages_router(ctx: WebContext) -> APIRouter:
    router = APIRouter()
    judge = ctx.judge

    @router.get("/", response_class=HTMLResponse)
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
        return ctx.page("index.html", request, rows=rows, units=units, warning=warning,
                        difficulties=sorted({p.difficulty for p in problems}, key=_difficulty_order),
                        tags=sorted({t for p in problems for t in p.tags}))

    @router.get("/problem/{problem_id}", response_class=HTMLResponse)
    def problem_page(request: Request, problem_id: str) -> Response:
        problem = judge.problem(problem_id)
        following = _next_problem(judge, problem.id)
        # The editor opens the learner's last attempt (from any face) unless its draft is newer.
        attempts, _ = judge.tutor.attempts(problem.id, limit=1)
        last = ({"source": attempts[0].source, "at": attempts[0].at, "when": attempts[0].when()}
                if attempts and attempts[0].source is not None else None)
        # Rule ids are the authors' handles (hidden tests, traps): learners read the rules' text only.
        return ctx.page("problem.html", request, problem=problem, status=judge.tutor.status(problem.id).value,
                        hints=judge.tutor.hints_shown(problem.id), following=following,
                        statement=markdown_html(_with_domain(problem)),
                        rules=[markdown_html(r.text) for r in problem.rules],
                        examples=_show_examples(judge, problem), starter=script_json(problem.starter),
                        last_attempt=script_json(last))

    @router.get("/unit/{unit_id}", response_class=HTMLResponse)
    def unit_page(request: Request, unit_id: str) -> Response:
        from judge.learner.units import LETTERS

        unit = judge.tutor.unit(unit_id)
        standing, warning = judge.tutor.standing(unit)
        titles = {pid: judge.problem(pid).title for pid in (*unit.problems, *unit.extras)}
        return ctx.page("unit.html", request, unit=unit, standing=standing, warning=warning, titles=titles,
                        letters=LETTERS, summary=markdown_html(unit.summary),
                        prompts={q.id: markdown_html(q.prompt) for q in unit.questions})

    return router


def _difficulty_order(difficulty: str) -> tuple[int, str]:
    order = {"easy": 0, "medium": 1, "hard": 2}
    return order.get(difficulty, 3), difficulty


def _with_domain(problem) -> str:
    """The statement's prose, then its input domain (judge.render.statement), as `judge show` has them."""
    domain = domain_markdown(problem)
    return f"{problem.statement.rstrip()}\n\n{domain}" if domain else problem.statement


def _show_examples(judge: Judge, problem) -> list[dict]:
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


def _next_problem(judge: Judge, problem_id: str):
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
