"""judge/render/statement.py: the statement's prose, its input domain, then its rules as a list."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from judge.model.domain import Domain
from judge.model.problem import Rule, load_problem
from judge.render import problem_markdown, statement_markdown

REPO = Path(__file__).resolve().parents[2]


def test_rules_follow_the_prose_as_a_list() -> None:
    problem = load_problem(REPO, "clip_loss")
    text = statement_markdown(problem)
    assert text.startswith(problem.statement.rstrip())
    rules = text[len(problem.statement.rstrip()):]
    assert "**Rules.**" in rules
    for rule in problem.rules:
        assert f"- {rule.text.strip()}" in rules
    assert "in the inputs' dtype" in rules  # clip_loss's dtype rule is stated (issue 12)


def test_multi_line_rule_text_stays_in_its_list_item() -> None:
    problem = load_problem(REPO, "patchify")
    two_lines = replace(problem, rules=(Rule("a", "first line\nsecond line", ("values",)),))
    assert statement_markdown(two_lines).endswith("- first line\n  second line")


def test_no_rules_and_no_domain_leave_the_statement_alone() -> None:
    problem = replace(load_problem(REPO, "patchify"), rules=(), domain=Domain())
    assert statement_markdown(problem) == problem.statement.rstrip()


def test_the_input_domain_comes_between_the_prose_and_the_rules() -> None:
    problem = load_problem(REPO, "resize_pos_embed")
    text = statement_markdown(problem)
    domain = text[len(problem.statement.rstrip()):text.index("**Rules.**")]
    assert "**Input domain.**" in domain and "is never tested" in domain
    assert "- `pos_embed`: a `torch.Tensor` of dtype float32 or float64\n" in domain
    assert "- `new_grid`: a tuple or list of `int`s" in domain


def test_converted_statements_do_not_repeat_a_rules_section() -> None:
    for problem_id in ("patchify", "pos_embed", "clip_loss", "info_nce", "unpatchify"):
        problem = load_problem(REPO, problem_id)
        assert problem.rules and "**Rules.**" not in problem.statement, f"{problem_id}: rules belong in `rules:`"


def test_problem_markdown_is_the_notebooks_page():
    problem = load_problem(REPO, "patchify")
    page = problem_markdown(problem)
    assert page.startswith(f"## {problem.title}\n`patchify` · {problem.difficulty} · torch\n")
    assert statement_markdown(problem) in page
    assert f"```python\n{problem.signature}\n```" in page
    assert page.endswith(f"Limits: {problem.limits.time_s:g} s per test, {problem.limits.memory_mb} MiB.")
