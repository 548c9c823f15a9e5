"""The statement as learners read it: the problem's prose, its input domain, then its rules as a list.

Rules live in the problem YAML with ids that tests refer to (judge.model.rules), and
the input domain with the arguments' types (judge.model.domain), so the statement's
prose does not repeat them; every face that shows a statement (`judge show`, the
starter's docstring) renders it through here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the render layer does not load problems
    from judge.model.problem import Problem


def domain_markdown(problem: "Problem") -> str:
    """The input domain as a list, one argument a line, or "" when the problem states none."""
    stated = [a for a in problem.domain.args if not a.open]
    if not stated:
        return ""
    items = "\n".join(f"- `{a.name}`: {a.words()}" for a in stated)
    return ("**Input domain.** The tests pass only such arguments; what your code does with anything "
            "else (a float or a bool where an `int` is due, say) is never tested.\n\n" + items)


def statement_markdown(problem: "Problem") -> str:
    """The statement as learners read it: the prose, the input domain, then every rule as a list item."""
    text = problem.statement.rstrip()
    domain = domain_markdown(problem)
    if domain:
        text = f"{text}\n\n{domain}"
    if not problem.rules:
        return text
    items = []
    for rule in problem.rules:
        lines = rule.text.strip().splitlines() or [""]
        items.append("\n".join([f"- {lines[0]}"] + [f"  {line}" if line.strip() else "" for line in lines[1:]]))
    return f"{text}\n\n**Rules.**\n\n" + "\n".join(items)


def problem_markdown(problem: "Problem") -> str:
    """The problem as one Markdown page (a notebook's `show()`): title, facts, statement, signature, limits."""
    parts = [f"## {problem.title}", f"`{problem.id}` · {problem.difficulty} · {problem.framework}", "",
             statement_markdown(problem)]
    parts += ["", "```python", problem.signature, "```",
              f"Limits: {problem.limits.time_s:g} s per test, {problem.limits.memory_mb} MiB."]
    return "\n".join(parts)
