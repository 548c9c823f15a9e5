"""judge/render/problem.py: the page `judge show` prints."""
from __future__ import annotations

from pathlib import Path

from judge.judging.prepared import examples as examples_of
from judge.model.problemset import ProblemSet
from judge.render import problem_lines, to_text

REPO = Path(__file__).resolve().parents[2]


def test_page_has_title_statement_signature_limits_and_every_example():
    problems = ProblemSet(REPO)
    problem = problems.get("patchify")
    examples = examples_of(problem, None)
    text = to_text(problem_lines(problem, examples))
    lines = text.splitlines()
    assert lines[0] == f"{problem.title}  [patchify, {problem.difficulty}, torch]"
    assert f"    {problem.signature}" in lines
    assert "Limits" in lines and any(line.endswith("MiB of memory") for line in lines)
    assert [line for line in lines if line.startswith("Example: ")] == [f"Example: {e.case.name}" for e in examples]
    assert "    returns:" in lines and "\x1b[" not in text


def test_colour_only_styles_the_headings_and_code():
    problems = ProblemSet(REPO)
    problem = problems.get("patchify")
    coloured = to_text(problem_lines(problem, [], colour=True), colour=True)
    assert coloured.splitlines()[0] == f"\x1b[1m{problem.title}  [patchify, {problem.difficulty}, torch]\x1b[0m"
