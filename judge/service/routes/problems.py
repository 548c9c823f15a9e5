"""GET /api/v1/problems and /api/v1/problems/{id}: the problems' public parts, as `judge show` gives them."""

from fastapi import APIRouter

from judge.service.routes.context import PREFIX, ApiContext


def problems_router(ctx: ApiContext) -> APIRouter:
    router = APIRouter()

    @router.get(f"{PREFIX}/problems")
    def list_problems(user: ctx.Caller) -> dict:
        """Every problem: id, title, difficulty, tags, framework."""
        problems, _ = ctx.judge.problem_set.load()  # a broken problem is not served; the others are
        return {"problems": [{"id": p.id, "title": p.title, "difficulty": p.difficulty, "tags": list(p.tags),
                              "framework": p.framework} for p in problems]}

    @router.get(f"{PREFIX}/problems/{{problem_id}}")
    def get_problem(problem_id: str, user: ctx.Caller) -> dict:
        """A problem's public parts: statement, rules, signature, starter, public examples, limits, and the
        hints you have been given (POST .../hints gives the next)."""
        p = ctx.known_problem(problem_id)
        reached = min(ctx.store.hints_given(user.id, p.id), len(p.hints))
        return {"id": p.id, "title": p.title, "difficulty": p.difficulty, "tags": list(p.tags),
                "framework": p.framework, "entry_point": p.entry_point, "signature": p.signature,
                "statement": p.statement, "rules": [{"id": r.id, "text": r.text} for r in p.rules],
                "starter": p.starter, "examples": show_examples(ctx.judge, p),
                "hints": [h.strip() for h in p.hints[:reached]], "hint_levels": len(p.hints),
                "limits": {"time_s": p.limits.time_s, "memory_mb": p.limits.memory_mb}}

    return router


def show_examples(judge, problem) -> list[dict]:
    """The public examples as `judge show` prints them: each input and the reference's output as text."""
    from judge.model.cases import MAIN
    from judge.render import show_input, show_value

    shown = []
    for example in judge.examples(problem):
        case, main = example.case, example.expected[MAIN]
        shown.append({"name": case.name,
                      "inputs": {name: show_input(spec, case.args[case.arg_index(name)], "")
                                 for name, spec in case.test.inputs.items()},
                      "output": f"raises {main.error.type}" if main.error is not None else show_value(main.value, ""),
                      "explanation": (case.test.explanation or "").strip()})
    return shown
