"""A problem as `judge show` prints it: title, statement and rules, signature, limits, public examples.

Examples arrive drawn, with the reference's outputs (judge.model.problemset.Example),
so this module only lays them out.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from judge.render.display import show_input, show_value
from judge.render.markdown import render_markdown
from judge.render.segments import Line
from judge.render.statement import statement_markdown

if TYPE_CHECKING:  # the render layer does not load problems
    from judge.model.problem import Problem

def problem_lines(problem: "Problem", examples: Iterable[Any], *, colour: bool = False) -> list[Line]:
    """The page `judge show` prints; `colour` as the Markdown renderer needs it (code keeps its
    backticks without colour)."""
    from judge.model.cases import MAIN  # loaded already: the examples were drawn through it

    lines: list[Line] = [[(f"{problem.title}  [{problem.id}, {problem.difficulty}, {problem.framework}]", "bold")],
                         []]
    lines += render_markdown(statement_markdown(problem), colour=colour)
    lines += [[], [("Signature", "bold")], [(f"    {problem.signature}", None)],
              [], [("Limits", "bold")],
              [(f"    {problem.limits.time_s:g} s per test, {problem.limits.memory_mb} MiB of memory", None)]]
    for example in examples:
        case, expected = example.case, example.expected
        lines += [[], [(f"Example: {case.name}", "bold")]]
        for name, spec in case.test.inputs.items():
            lines += _text(f"    {name} = {show_input(spec, case.args[case.arg_index(name)], '    ')}")
        main = expected[MAIN]
        if main.error is not None:
            lines += _text(f"    raises {main.error.type}")
        else:
            lines += _text("    returns:") + _text(show_value(main.value, "      "))
        if case.test.explanation:
            lines += _text(f"    {case.test.explanation.strip()}")
    return lines


def _text(text: str) -> list[Line]:
    return [[(line, None)] for line in text.split("\n")]
