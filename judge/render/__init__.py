"""Rendering: every way the judge shows a report or a statement to a person.

    segments   the one styled-line type (`Segment`, `Line`) and its terminal text (`to_text`)
    text       reports as terminal text: `render`, `render_text`, `terminal_output`, `values_lines`
    sidebyside a public example's output beside the expected one, mismatches marked
    display    values and input specs as text (small tensors in full)
    markdown   Markdown statements for a terminal (`render_markdown`)
    statement  a problem's statement as Markdown (prose, then its rules), a notebook's problem page
    problem    a problem as `judge show` prints it (statement, signature, limits, examples)
    html       reports and problem lists for notebooks, lines as HTML, statements for the web page
    listing    `judge list`'s table
    units      `judge units` and `judge unit`
    terminal   colours and widths of the terminal (`use_colour`, `terminal_width`)

The faces (CLI, notebook, web page, warm server, service) import what they
show from here; `judge.base.report` keeps only the data. Names load on first use
(PEP 562), so showing a statement never imports numpy.
"""
from __future__ import annotations

from judge.base.lazy import attributes

_LAZY = {
    "Segment": "judge.render.segments",
    "Line": "judge.render.segments",
    "to_text": "judge.render.segments",
    "plain": "judge.render.segments",
    "render": "judge.render.text",
    "render_text": "judge.render.text",
    "terminal_output": "judge.render.text",
    "values_lines": "judge.render.text",
    "render_markdown": "judge.render.markdown",
    "statement_markdown": "judge.render.statement",
    "problem_markdown": "judge.render.statement",
    "problem_lines": "judge.render.problem",
    "show_input": "judge.render.display",
    "show_value": "judge.render.display",
    "report_html": "judge.render.html",
    "check_html": "judge.render.html",
    "problems_html": "judge.render.html",
    "lines_html": "judge.render.html",
    "inline_html": "judge.render.html",
    "markdown_html": "judge.render.html",
    "listing_lines": "judge.render.listing",
    "units_lines": "judge.render.units",
    "unit_lines": "judge.render.units",
    "use_colour": "judge.render.terminal",
    "terminal_width": "judge.render.terminal",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = attributes("judge.render", _LAZY)
del attributes  # the loader, not a name this package offers
