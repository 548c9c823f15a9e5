"""Solutions for learners: the reference and its editorial, once earned or asked for.

`judge solution ID` shows the trusted reference and the problem's editorial
(the idea, the cost, the classic mistakes: `editorial:` in the hidden tests'
YAML) once the problem is accepted on a full run. Before that it asks first,
and seeing it early is recorded in the progress database ("solution viewed"),
as practice sites do: the learner's tutor (judge.learner.tutor) keeps that rule; this module
reads the solution.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass

from judge.model.problem import Editorial, Problem, load_hidden
from judge.render.markdown import render_markdown
from judge.render.segments import plain


@dataclass(frozen=True)
class Solution:
    problem: str
    title: str
    reference: str
    editorial: Editorial | None

    def lines(self) -> list[str]:
        lines = [f"Solution: {self.title} [{self.problem}]", ""]
        if self.editorial is not None:
            lines += ["The idea", *_paragraphs(self.editorial.idea), ""]
            if self.editorial.cost:
                lines += ["The cost", *_wrapped(self.editorial.cost), ""]
            if self.editorial.mistakes:
                lines.append("Classic mistakes")
                for mistake in self.editorial.mistakes:
                    lines += _wrapped(mistake, first="  - ", rest="    ")
                lines.append("")
        lines += ["The reference", *("    " + line if line else "" for line in self.reference.rstrip().splitlines())]
        return lines


def solution(problem: Problem) -> Solution:
    hidden = load_hidden(problem)
    return Solution(problem.id, problem.title, hidden.reference_source(), hidden.editorial)


def _paragraphs(text: str) -> list[str]:
    """An idea as Markdown for a terminal: one paragraph is wrapped text; more (an imported editorial's
    headings, lists and formulas, docs/deepml.md) keep their layout, maths as Unicode (judge.render.markdown)."""
    if "\n\n" not in text.strip():
        return _wrapped(text)
    return [plain(line) for line in render_markdown(text, width=96, indent="  ")]


def _wrapped(text: str, first: str = "  ", rest: str = "  ") -> list[str]:
    return textwrap.wrap(" ".join(text.split()), width=96, initial_indent=first, subsequent_indent=rest) or [first]
