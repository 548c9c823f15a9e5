"""The statement as learners read it: the problem's prose, then its rules as a list.

Rules live in the problem YAML with ids that tests refer to (judge.model.rules), so
the statement's prose does not repeat them; every face that shows a statement
(`judge show`, the starter's docstring) renders it through here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the render layer does not load problems
    from judge.model.problem import Problem


def statement_markdown(problem: "Problem") -> str:
    """The statement as learners read it: the prose, then every rule as a list item."""
    text = problem.statement.rstrip()
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
