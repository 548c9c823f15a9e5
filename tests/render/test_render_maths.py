"""TeX maths as terminal text (judge/render/maths.py), as `judge show` prints statements."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.render import render_markdown, to_text
from judge.render.maths import replace_maths, tex_text

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("tex, text", [
    (r"\frac{1}{N}\sum_{n=1}^{N} x[b, n]", "(1/N)Σₙ₌₁ᴺ x[b, n]"),
    (r"s = q k^\top / \sqrt{d_k}", "s = q kᵀ / √dₖ"),
    (r"\ell_k = -s_{k,\mathrm{pos}(k)} + \log \sum_{j \ne k} \exp(s_{k,j})",
     "ℓₖ = -s_(k,pos(k)) + log Σ_(j ≠ k) exp(s_(k,j))"),
    (r"\alpha^2 + \beta_{ij} \le \gamma", "α² + βᵢⱼ ≤ γ"),
    (r"\mathcal{L} = \tfrac{1}{2}\big(a + b\big)", "L = (1/2)(a + b)"),
    (r"\sqrt{x + 1}", "√(x + 1)"),
    (r"\unknowncommand{x}", r"\unknowncommand x"),
])
def test_common_tex_reads_as_unicode(tex, text):
    assert tex_text(tex) == text


def test_inline_and_display_maths_in_markdown():
    md = "The loss $\\ell_k$ is\n\n$$\\frac{a}{b}$$\n\nand costs $5 or $10."
    out = replace_maths(md)
    assert "The loss ℓₖ is" in out and "(a/b)" in out and "$$" not in out
    assert "costs $5 or $10." in out            # dollars that are no formula stay


def test_judge_show_prints_no_tex_for_the_shipped_statements():
    from judge.model.problem import load_problem, problem_ids
    from judge.render import problem_markdown

    for pid in problem_ids(REPO):
        shown = to_text(render_markdown(problem_markdown(load_problem(REPO, pid))))
        for command in ("\\frac", "\\sqrt", "\\sum", "\\mathrm", "\\ell", "$$", "\\top"):
            assert command not in shown, (pid, command)
